import { commandHandler, type StreamType } from '../eventSourcing/commandHandler.js';
import type { RecordedEvent } from '../eventStore/eventStore.js';
import { MONITORING_CATEGORY, MONITORING_EVENT_TYPES, type MonitoringEvent } from './monitoringEvents.js';
import { evolveMonitoring, type MaybeMonitoringConfig } from './monitoringState.js';

/** The stream `monitoringConfig-<monitoring_config_id>`: its fold and its command handler. */
export const monitoringStream: StreamType<MaybeMonitoringConfig, MonitoringEvent> = {
  category: MONITORING_CATEGORY,
  initialState: () => null,
  evolve: evolveMonitoring,
  toEvent: toMonitoringEvent,
};

export const monitoringCommandHandler = commandHandler(monitoringStream);

function toMonitoringEvent(recorded: RecordedEvent): MonitoringEvent {
  if (!(MONITORING_EVENT_TYPES as readonly string[]).includes(recorded.type)) {
    throw new Error(`Unknown event type ${recorded.type} on ${recorded.streamName}`);
  }
  return { type: recorded.type, data: recorded.data } as MonitoringEvent;
}
