// One part of a workbook streamed through saxes as it inflates. saxes expands no DTD and no entity
// beyond XML's five; a DOCTYPE is refused outright and nesting is capped, so no XML costs more than
// its size. Element names are given without their namespace prefix ("x:row" → "row").
import { SaxesParser } from 'saxes';
import { CsvLimitError, damaged, limitMessages, WORKBOOK_LIMITS } from './limits.ts';
import { readPart, type Zip } from './zip.ts';

export type Attributes = Record<string, string>;

export interface XmlHandlers {
  open(name: string, attributes: Attributes): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** Streams the part `name` to the handlers; false when the archive has no such part. */
export function parsePart(zip: Zip, part: string, handlers: XmlHandlers): boolean {
  const parser = new SaxesParser({ position: false });
  let depth = 0;
  let elements = 0;
  const { open, close, text } = handlers;
  parser.on('doctype', () => {
    throw new CsvLimitError(limitMessages.doctype(part));
  });
  parser.on('opentag', (tag) => {
    if (++depth > WORKBOOK_LIMITS.xmlDepth) throw new CsvLimitError(limitMessages.depth(part));
    if (++elements > WORKBOOK_LIMITS.xmlElements) throw new CsvLimitError(limitMessages.elements(part));
    const name = localName(tag.name);
    open(name, tag.attributes as Attributes);
    if (tag.isSelfClosing) {
      depth--;
      if (close !== undefined) close(name);
    }
  });
  parser.on(
    'closetag',
    close === undefined
      ? (tag) => {
          if (!tag.isSelfClosing) depth--;
        }
      : (tag) => {
          if (tag.isSelfClosing) return;
          depth--;
          close(localName(tag.name));
        },
  );
  if (text) parser.on('text', text);
  parser.on('error', (error) => {
    throw damaged(`its part ${part} is not well-formed XML (${error.message})`);
  });
  // saxes holds a text or attribute run whole until its end: a run longer than any cell may hold
  // (a crafted part of one 200 MB string) is refused before it is gathered.
  let run = 0;
  const found = readPart(zip, part, (chunk) => {
    const first = chunk.indexOf('<');
    if (first < 0) run += chunk.length;
    else {
      if (run + first > WORKBOOK_LIMITS.textRun) throw new CsvLimitError(limitMessages.run(part));
      run = chunk.length - chunk.lastIndexOf('<') - 1;
    }
    if (run > WORKBOOK_LIMITS.textRun) throw new CsvLimitError(limitMessages.run(part));
    parser.write(chunk);
  });
  if (found) parser.close();
  return found;
}

export function localName(name: string): string {
  // A prefixed name has at least three characters ("x:c"); a sheet's commonest, c and v, have one.
  if (name.length < 3) return name;
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute by its local name, whatever its prefix ("r:id" for "id"). */
export function attribute(attributes: Attributes, local: string): string | undefined {
  if (local in attributes) return attributes[local];
  for (const key in attributes) if (localName(key) === local) return attributes[key];
  return undefined;
}
