// Parses a flow file (YAML or JSON) into validated Flows; every problem names the file, the path and the line.
import { LineCounter, parseDocument, isMap, isNode, isScalar, type Document } from 'yaml';
import { flowFileSchema, type Flows } from './flow-schema.js';
import { checkReferences, type FlowPath } from './flow-references.js';
import { extractTranslations } from './localized-texts.js';

export interface FlowProblem {
  /** Dotted path inside the file, e.g. `intents.refund.then`; empty for the whole file. */
  path: string;
  line?: number;
  message: string;
}

export class FlowFileError extends Error {
  readonly code = 'FLOW_FILE_INVALID';
  constructor(
    readonly fileName: string,
    readonly problems: FlowProblem[],
    what = 'flow file',
  ) {
    const lines = problems.map((p) => `  - ${p.path || '(file)'}${p.line !== undefined ? ` (line ${p.line})` : ''}: ${p.message}`);
    super(`${fileName}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the ${what}\n${lines.join('\n')}`);
    this.name = 'FlowFileError';
  }
}

/** The node of a path, or for a map entry its key (a block value starts on the line after its key). */
function nodeAt(doc: Document, path: FlowPath): unknown {
  const parent: unknown = path.length <= 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  if (last !== undefined && isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
    if (pair) return pair.key;
  }
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

export function lineOf(doc: Document, counter: LineCounter, path: FlowPath): number | undefined {
  // Walk back to the deepest part of the path that exists (a missing key has no node of its own).
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(doc, path.slice(0, n));
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

export const dotted = (path: FlowPath): string => path.map(String).join('.');

/** The YAML (or JSON) document of a file with its line counter; a syntax error throws with the line of each problem. */
export function parseYamlFile(text: string, fileName: string, what = 'flow file'): { doc: Document; counter: LineCounter } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new FlowFileError(
      fileName,
      doc.errors.map((e) => ({ path: '', line: counter.linePos(e.pos[0]).line, message: e.message.split('\n')[0] ?? e.message })),
      what,
    );
  }
  return { doc, counter };
}

export function parseFlows(text: string, fileName: string): Flows {
  const { doc, counter } = parseYamlFile(text, fileName);
  const { flat, translations, problems: languageProblems } = extractTranslations(doc.toJS());
  const parsed = flowFileSchema.safeParse(flat);
  const located = (ps: typeof languageProblems): FlowProblem[] =>
    ps.map((p) => {
      const line = lineOf(doc, counter, p.path);
      return { path: dotted(p.path), message: p.message, ...(line !== undefined ? { line } : {}) };
    });
  if (!parsed.success) {
    throw new FlowFileError(fileName, [
      ...located(languageProblems),
      ...parsed.error.issues.map((issue) => {
        const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const at = keys.length > 0 && keys[0] !== undefined ? [...path, keys[0]] : path;
        const line = lineOf(doc, counter, at);
        return { path: dotted(at), message: issue.message, ...(line !== undefined ? { line } : {}) };
      }),
    ]);
  }
  const problems = [...languageProblems, ...checkReferences(parsed.data)];
  if (problems.length > 0) {
    throw new FlowFileError(fileName, located(problems));
  }
  return Object.keys(translations).length > 0 ? { ...parsed.data, translations } : parsed.data;
}
