import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { SourceParseError } from '../model/listedEntity.js';
import type { ProgressTracker } from './progress.js';

/**
 * Streaming XML for list formats: the file is read in chunks and fed to saxes, and only one
 * record element at a time (an OFAC `sdnEntry`, a UN `INDIVIDUAL`) is built as a small tree and
 * handed out, so a large list never sits in memory.
 *
 * Elements are known by their local name: a namespace prefix is dropped and namespaces are not
 * checked, because publishers change namespace URIs between versions (OFAC's `sdnList` has moved
 * from `http://tempuri.org/sdnList.xsd` to a treasury.gov URI) while the element names stay.
 */

export interface XmlElement {
  /** Local name, prefix removed. */
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text and CDATA, as written (not trimmed). */
  text: string;
  /** Line of the start tag, for error messages. */
  line: number;
}

export interface XmlRecordOptions {
  /** Local name the document element must have; anything else is not this format. */
  root: string;
  /** Local names of the record elements; a record inside a record is part of the outer one. */
  records: ReadonlySet<string>;
  /** Called with the document element (attributes only) as soon as it opens. */
  onRoot?: (root: XmlElement) => void;
  progress: ProgressTracker;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function withoutPosition(message: string): string {
  return message.replace(/^\d+:\d+: /, '');
}

/**
 * Yields each record element of `file` in document order. Throws `SourceParseError` with the line
 * for XML that is not well-formed, for a document element other than `options.root`, and when
 * the file cannot be read.
 */
export async function* readXmlRecords(file: string, options: XmlRecordOptions): AsyncGenerator<XmlElement> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const completed: XmlElement[] = [];
  /** Open elements of the current record, outermost first; empty outside records. */
  const open: XmlElement[] = [];
  let depth = 0;

  parser.on('error', (error) => {
    throw new SourceParseError(file, `malformed XML: ${withoutPosition(error.message)}`, {
      line: parser.line,
    });
  });
  parser.on('opentag', (tag) => {
    depth++;
    const element: XmlElement = {
      name: localName(tag.name),
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
      line: parser.line,
    };
    if (depth === 1) {
      if (element.name !== options.root) {
        throw new SourceParseError(file, `expected a <${options.root}> document, found <${element.name}>`, {
          line: parser.line,
        });
      }
      options.onRoot?.(element);
      return;
    }
    const parent = open[open.length - 1];
    if (parent) {
      parent.children.push(element);
      open.push(element);
    } else if (options.records.has(element.name)) {
      open.push(element);
    }
  });
  const addText = (text: string) => {
    const current = open[open.length - 1];
    if (current) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    depth--;
    const element = open.pop();
    if (element && open.length === 0) completed.push(element);
  });

  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      parser.write(first ? chunk.replace(/^\ufeff/, '') : chunk);
      first = false;
      options.progress.read(file, stream.bytesRead);
      yield* completed.splice(0);
    }
    parser.close();
  } catch (error) {
    if (error instanceof SourceParseError) throw error;
    throw new SourceParseError(file, `cannot read: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
  yield* completed.splice(0);
  options.progress.fileDone(file, stream.bytesRead);
}

/** The first child named `name`. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

/** Every child named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}

/** The `item` children of the first `list` child (`<akaList><aka/>...</akaList>`); none when the list is absent. */
export function listItems(element: XmlElement, list: string, item: string): XmlElement[] {
  const container = child(element, list);
  return container ? childrenNamed(container, item) : [];
}

/** Trimmed, non-blank texts of the `item` children of the first `list` child. */
export function listTexts(element: XmlElement, list: string, item: string): string[] {
  return listItems(element, list, item)
    .map((c) => c.text.trim())
    .filter((text) => text !== '');
}

/** Trimmed text of the first child named `name`; `undefined` when absent or blank. */
export function childText(element: XmlElement, name: string): string | undefined {
  const text = child(element, name)?.text.trim();
  return text ? text : undefined;
}
