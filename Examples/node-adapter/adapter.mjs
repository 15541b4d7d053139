#!/usr/bin/env node
// Example adapter: a Screen Time implementation as a React Native app's JS side would typically write it,
// answering the conformance runner's stdin/stdout JSON-lines protocol (SPEC §5).
//
// It is written in good faith with the usual JS tools (encodeURIComponent, decodeURIComponent, Buffer,
// JSON.parse, a regex template replace). Property lists answer `unsupported`: Node has no plist reader. It is not sabotaged, and its known deviations from the reference
// are listed in README.md: they are what the conformance reports should show.
//
// Node built-ins only. Run: node Examples/node-adapter/adapter.mjs

import readline from 'node:readline';
import { once } from 'node:events';
import { Buffer } from 'node:buffer';

// ---------------------------------------------------------------------------------------------------------
// Errors

/** An error with a code of the vector format (`empty`, `base64`, `invalidUTF8`, `badInput`, …). */
class CodedError extends Error {
  constructor(code, message = code) {
    super(message);
    this.code = code;
  }
}

const badInput = (message) => new CodedError('badInput', message);

// Input accessors: a missing or mistyped member is `badInput`.
function inputObject(input) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw badInput('input is not an object');
  return input;
}
function str(input, key) {
  const v = inputObject(input)[key];
  if (typeof v !== 'string') throw badInput(`"${key}" is not a string`);
  return v;
}
function oneOf(input, key, allowed) {
  const v = str(input, key);
  if (!allowed.includes(v)) throw badInput(`"${key}" is not one of ${allowed.join(', ')}`);
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Selections (SPEC §1)

const MAX_BASE64_LENGTH = 1024 * 1024; // "over 1 MiB of base64" is tooLarge
const MAX_TOKEN_BYTES = 1024;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TOKEN_KEYS = ['applicationTokens', 'categoryTokens', 'webDomainTokens'];
const UNTOKENIZED_KEYS = [
  'untokenizedApplicationIdentifiers',
  'untokenizedCategoryIdentifiers',
  'untokenizedWebDomainIdentifiers',
];
const KIND_KEY = { application: 'applicationTokens', category: 'categoryTokens', webDomain: 'webDomainTokens' };

/**
 * Decodes a stored selection string into
 * `{ applicationTokens: Set, categoryTokens: Set, webDomainTokens: Set, includeEntireCategory, untokenized…: [] }`
 * (token sets hold `data` strings), or throws a CodedError. Checks run in the spec's precedence order.
 */
function decodeSelection(s) {
  checkSize(s);
  if (!BASE64_RE.test(s)) throw new CodedError('base64');
  return selectionFromJSON(parseJSON(Buffer.from(s, 'base64')));
}

/** `empty` and `tooLarge`, the first checks of every format (`length`: UTF-16 units of a string, bytes of a Buffer). */
function checkSize(stored) {
  if (stored.length === 0) throw new CodedError('empty');
  if (stored.length > MAX_BASE64_LENGTH) throw new CodedError('tooLarge');
}

function parseJSON(bytes) {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new CodedError('json');
  }
}

/** A parsed JSON value to a selection, by the schema rules and then the token rules. */
function selectionFromJSON(root) {
  // Schema first (every schema error outranks every token error).
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new CodedError('schema', 'top level is not an object');
  for (const key of TOKEN_KEYS) {
    if (!Array.isArray(root[key])) throw new CodedError('schema', `${key} missing or not an array`);
  }
  if (root.includeEntireCategory !== undefined && typeof root.includeEntireCategory !== 'boolean') {
    throw new CodedError('schema', 'includeEntireCategory is not a boolean');
  }
  for (const key of UNTOKENIZED_KEYS) {
    const v = root[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || !v.every((e) => typeof e === 'string')) {
      throw new CodedError('schema', `${key} is not an array of strings`);
    }
  }

  // Then tokens.
  const selection = { includeEntireCategory: root.includeEntireCategory ?? false };
  for (const key of TOKEN_KEYS) {
    const set = new Set();
    for (const element of root[key]) {
      if (typeof element !== 'object' || element === null || typeof element.data !== 'string') {
        throw new CodedError('token', `${key} holds an element that is not {"data": string}`);
      }
      const data = element.data;
      if (!BASE64_RE.test(data)) throw new CodedError('token', 'token data is not base64');
      const byteCount = Buffer.from(data, 'base64').length;
      if (byteCount === 0 || byteCount > MAX_TOKEN_BYTES) throw new CodedError('token', `token is ${byteCount} bytes`);
      set.add(data);
    }
    selection[key] = set;
  }
  for (const key of UNTOKENIZED_KEYS) selection[key] = root[key] ?? [];
  return selection;
}

const isSelectionObject = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && TOKEN_KEYS.some((key) => key in value);

const pointerToken = (name) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Walks a JSON document depth first: each object holding a token array key is one selection, read on its own. */
function documentSelections(root) {
  const found = [];
  const walk = (value, path) => {
    if (isSelectionObject(value)) {
      try {
        found.push({ path, ...describe(selectionFromJSON(value)) });
      } catch (error) {
        if (!(error instanceof CodedError)) throw error;
        found.push({ path, error: error.code });
      }
    } else if (Array.isArray(value)) {
      value.forEach((element, index) => walk(element, `${path}/${index}`));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) walk(member, `${path}/${pointerToken(key)}`);
    }
  };
  walk(root, '');
  return found;
}

const FORMATS = ['base64-json', 'json', 'json-document', 'binary-plist', 'xml-plist', 'base64-plist'];
const PLIST_FORMATS = ['binary-plist', 'xml-plist', 'base64-plist'];

/** Property lists need a library (plist, bplist-parser); this app's JS side keeps JSON only. */
class Unsupported extends Error {}

function formatOf(input, { required = false, allowed = FORMATS } = {}) {
  if (!required && !('format' in inputObject(input))) return 'base64-json';
  return oneOf(input, 'format', allowed);
}

/** The stored value of `format`: the `base64` text, or the bytes carried by `data` (canonical base64 on the wire). */
function storedValue(input, format) {
  if (format === 'base64-json' || format === 'base64-plist') return str(input, 'base64');
  const data = str(input, 'data');
  if (!BASE64_RE.test(data)) throw badInput('"data" is not base64');
  return Buffer.from(data, 'base64');
}

function decodeStored(format, stored) {
  if (PLIST_FORMATS.includes(format)) throw new Unsupported(format);
  if (format === 'base64-json') return describe(decodeSelection(stored));
  checkSize(stored);
  const root = parseJSON(stored);
  if (format === 'json-document') return { selections: documentSelections(root) };
  return describe(selectionFromJSON(root));
}

/** The selection as the app stores it: `JSON.stringify` of the plain object (tokens in stable order). */
function encodeSelection(selection, format) {
  if (PLIST_FORMATS.includes(format)) throw new Unsupported(format);
  const object = {
    applicationTokens: [...selection.applicationTokens].sort(byData).map((data) => ({ data })),
    categoryTokens: [...selection.categoryTokens].sort(byData).map((data) => ({ data })),
    webDomainTokens: [...selection.webDomainTokens].sort(byData).map((data) => ({ data })),
    includeEntireCategory: selection.includeEntireCategory,
    untokenizedApplicationIdentifiers: selection.untokenizedApplicationIdentifiers,
    untokenizedCategoryIdentifiers: selection.untokenizedCategoryIdentifiers,
    untokenizedWebDomainIdentifiers: selection.untokenizedWebDomainIdentifiers,
  };
  const base64 = Buffer.from(JSON.stringify(object), 'utf8').toString('base64');
  return format === 'json' ? { data: base64 } : { base64 };
}

const byData = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Canonical form (SPEC §1): sorted keys, no whitespace, `/` as `\/`, sorted tokens, sorted unique untokenized. */
function canonical(selection) {
  // Keys inserted in code point order; JSON.stringify keeps insertion order.
  const object = {
    applicationTokens: [...selection.applicationTokens].sort(byData).map((data) => ({ data })),
    categoryTokens: [...selection.categoryTokens].sort(byData).map((data) => ({ data })),
    includeEntireCategory: selection.includeEntireCategory,
    untokenizedApplicationIdentifiers: [...new Set(selection.untokenizedApplicationIdentifiers)].sort(),
    untokenizedCategoryIdentifiers: [...new Set(selection.untokenizedCategoryIdentifiers)].sort(),
    untokenizedWebDomainIdentifiers: [...new Set(selection.untokenizedWebDomainIdentifiers)].sort(),
    webDomainTokens: [...selection.webDomainTokens].sort(byData).map((data) => ({ data })),
  };
  const json = JSON.stringify(object).replace(/\//g, '\\/');
  return Buffer.from(json, 'utf8').toString('base64');
}

function describe(selection) {
  return {
    applications: selection.applicationTokens.size,
    categories: selection.categoryTokens.size,
    webDomains: selection.webDomainTokens.size,
    includeEntireCategory: selection.includeEntireCategory,
    canonical: canonical(selection),
  };
}

const SET_OPS = {
  union: (a, b) => new Set([...a, ...b]),
  intersection: (a, b) => new Set([...a].filter((x) => b.has(x))),
  difference: (a, b) => new Set([...a].filter((x) => !b.has(x))),
  symmetricDifference: (a, b) => new Set([...[...a].filter((x) => !b.has(x)), ...[...b].filter((x) => !a.has(x))]),
};

function combine(op, a, b) {
  const f = SET_OPS[op];
  // includeEntireCategory: true iff each operand has it true or has no category tokens.
  const entire = (s) => s.includeEntireCategory || s.categoryTokens.size === 0;
  return {
    applicationTokens: f(a.applicationTokens, b.applicationTokens),
    categoryTokens: f(a.categoryTokens, b.categoryTokens),
    webDomainTokens: f(a.webDomainTokens, b.webDomainTokens),
    includeEntireCategory: entire(a) && entire(b),
    untokenizedApplicationIdentifiers: [],
    untokenizedCategoryIdentifiers: [],
    untokenizedWebDomainIdentifiers: [],
  };
}

// ---------------------------------------------------------------------------------------------------------
// URL components and shield text (SPEC §4)

function urlDecode(encoded) {
  try {
    return decodeURIComponent(encoded);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    // decodeURIComponent says "URI malformed" for both cases; tell them apart by looking at the escapes.
    if (/%(?![0-9A-Fa-f]{2})/.test(encoded)) throw new CodedError('invalidPercentEncoding');
    throw new CodedError('invalidUTF8');
  }
}

const PLACEHOLDER_RE = /\{(\w+)(?:\|([^{}]*))?\}/g;

function renderTemplate(template, values) {
  const missing = [];
  const text = template.replace(PLACEHOLDER_RE, (_whole, key, fallback) => {
    const value = values[key];
    if (value === undefined || value === null || value === '') {
      if (!missing.includes(key)) missing.push(key);
      return fallback ?? '';
    }
    return String(value);
  });
  return { text, missing };
}

// ---------------------------------------------------------------------------------------------------------
// Operations

const OPERATIONS = {
  'selection.decode': (input) => {
    const format = formatOf(input);
    return decodeStored(format, storedValue(input, format));
  },

  'selection.encode': (input) => {
    const selection = decodeSelection(str(input, 'selection'));
    const format = formatOf(input, { required: true, allowed: FORMATS.filter((f) => f !== 'json-document') });
    return encodeSelection(selection, format);
  },

  'selection.equal': (input) => {
    const a = str(input, 'a');
    const b = str(input, 'b');
    return { equal: canonical(decodeSelection(a)) === canonical(decodeSelection(b)) };
  },

  'selection.order': (input) => {
    const base64 = str(input, 'base64');
    const kind = oneOf(input, 'kind', Object.keys(KIND_KEY));
    return { tokens: [...decodeSelection(base64)[KIND_KEY[kind]]].sort(byData) };
  },

  'selection.combine': (input) => {
    const op = oneOf(input, 'op', Object.keys(SET_OPS));
    const a = str(input, 'a');
    const b = str(input, 'b');
    return describe(combine(op, decodeSelection(a), decodeSelection(b)));
  },

  'url.encode': (input) => ({ encoded: encodeURIComponent(str(input, 'text')) }),

  'url.decode': (input) => ({ text: urlDecode(str(input, 'encoded')) }),

  'template.render': (input) => {
    const template = str(input, 'template');
    const values = inputObject(input).values;
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw badInput('"values" is not an object');
    for (const v of Object.values(values)) {
      if (v !== null && typeof v !== 'string') throw badInput('"values" holds a value that is not a string or null');
    }
    return renderTemplate(template, values);
  },

  // Shield evaluation and authorization live in native code in a React Native app: not answered here.
  'shield.evaluate': null,
  'auth.tokens': null,
  'auth.policy': null,
};

/** Answers one request line with one response object. Never throws. */
function respond(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return { id: null, error: 'protocol' };
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return { id: null, error: 'protocol' };
  const id = request.id ?? null;
  if (typeof request.op !== 'string') return { id, error: 'protocol' };

  const perform = Object.hasOwn(OPERATIONS, request.op) ? OPERATIONS[request.op] : null;
  if (!perform) return { id, unsupported: true };
  try {
    return { id, output: perform(request.input) };
  } catch (error) {
    if (error instanceof CodedError) return { id, error: error.code };
    if (error instanceof Unsupported) return { id, unsupported: true };
    // Not a code of the vector format: the runner will record a failure, which is what it is.
    process.stderr.write(`adapter.mjs: ${request.op} threw ${error?.stack ?? error}\n`);
    return { id, error: 'internal' };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The loop: one line in, one line out, in order; wait for 'drain' when stdout's buffer is full, and let Node
// flush pending writes before it exits at end of input (no process.exit()).

process.stdout.on('error', (error) => {
  // The runner went away: nothing left to answer.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let text;
  try {
    text = JSON.stringify(respond(line)) + '\n';
  } catch {
    text = JSON.stringify({ id: null, error: 'internal' }) + '\n';
  }
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}
