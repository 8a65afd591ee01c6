// Reads the seed (a markdown document) into headed sections with their tables and prose, and
// reads the small field lists the seed writes inside a Notes cell. Kept apart from the test so
// the test reads as the list of claims it checks.

export interface MarkdownTable {
  /** Column names as written, e.g. `['Field', 'Type', 'Notes']`. */
  header: string[];
  /** One record per row, keyed by column name. */
  rows: Record<string, string>[];
}

export interface MarkdownSection {
  /** 2 for `##`, 3 for `###`. */
  level: number;
  title: string;
  /** Title of the enclosing `##` section; for a `##` section, its own title. */
  parent: string;
  tables: MarkdownTable[];
  /** The non-table lines, joined by spaces. */
  prose: string;
}

export function parseSections(markdown: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection | undefined;
  let tableLines: string[] = [];
  let parent = '';
  const closeTable = () => {
    if (current && tableLines.length > 0) current.tables.push(parseTable(tableLines));
    tableLines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^(#{2,3}) (.+?)\s*$/.exec(line);
    if (heading) {
      closeTable();
      const level = heading[1]!.length;
      const title = heading[2]!;
      if (level === 2) parent = title;
      current = { level, title, parent, tables: [], prose: '' };
      sections.push(current);
    } else if (line.trimStart().startsWith('|')) {
      tableLines.push(line);
    } else {
      closeTable();
      if (current && line.trim() !== '') current.prose = `${current.prose} ${line.trim()}`.trim();
    }
  }
  closeTable();
  return sections;
}

function parseTable(lines: string[]): MarkdownTable {
  const [headerLine, separator, ...rowLines] = lines;
  // A table without its `|---|` line is not a table markdown renders; better to say so than guess.
  if (headerLine === undefined || separator === undefined || !/^\s*\|[\s|:-]+\|\s*$/.test(separator)) {
    throw new Error(`not a markdown table:\n${lines.join('\n')}`);
  }
  const header = splitRow(headerLine);
  const rows = rowLines.map((line) => {
    const cells = splitRow(line);
    if (cells.length !== header.length) throw new Error(`row has ${cells.length} cells, header has ${header.length}: ${line}`);
    return Object.fromEntries(header.map((column, i) => [column, cells[i]!]));
  });
  return { header, rows };
}

/** `| a | b \| c |` → `['a', 'b | c']`. */
function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

export interface NotedField {
  name: string;
  type: string;
  /** What the note says about presence; undefined when it says nothing. */
  presence?: 'always' | 'optional';
}

/**
 * The fields of an object (or of each item of an array) that a Notes cell lists, in the seed's
 * three phrasings:
 *   "Fields: name (string, always present), description (string, optional)."
 *   "Each has country_code (string)."  /  "Each item has loc (string[]), msg (string)."
 *   "Fields, all strings: completion, image."
 * Other notes (prose, shapes such as "(shape: <column>.<property>)") list no fields.
 */
export function fieldsInNotes(notes: string): NotedField[] {
  const sameType = /Fields, all (\w+)s: ([^.]+)\./.exec(notes);
  if (sameType) return sameType[2]!.split(',').map((name) => ({ name: name.trim(), type: sameType[1]! }));

  const listed = /(?:Fields:|Each has|Each item has) (.*)$/.exec(notes);
  if (!listed) return [];
  return [...listed[1]!.matchAll(/(\w+) \(([^)]*)\)/g)].map((match) => {
    const [type, ...qualifiers] = match[2]!.split(',').map((part) => part.trim());
    const field: NotedField = { name: match[1]!, type: type! };
    if (qualifiers.includes('always present')) field.presence = 'always';
    if (qualifiers.includes('optional')) field.presence = 'optional';
    return field;
  });
}
