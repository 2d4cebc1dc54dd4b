import type { ApiRoute } from '../../api/route.js';
import type { CaseRouteDependencies } from './routeDependencies.js';

export function caseQueryRoutes(_deps: CaseRouteDependencies): ApiRoute[] {
  return [];
}
