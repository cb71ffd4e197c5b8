import { InputError } from '../input-error.js';
import type { Cell } from './snake.model.js';
import { SNAKE_MAX_SIDE } from './snake.parse.js';

/**
 * A Snake instance read from a PDDL problem of the IPC-2018 Snake domain (docs/cli.md#pddl-input),
 * as the JSON instance of docs/cli.md#instance-formats: walls and spawn cells only when there are
 * some; the snake's tail cell is never entered in the step it frees it (`tail: "strict"`).
 */
export interface SnakePddlInstance {
  width: number;
  height: number;
  length: number;
  body: Cell[];
  apples: Cell[];
  order: 'any';
  walls?: Cell[];
  spawn?: Cell[];
  tail: 'strict';
}

/**
 * Whether `input` is the text of a PDDL problem: its first text past `;` comments and white space
 * is `(define (problem`, in any case.
 */
export function isPddlProblem(input: unknown): boolean {
  if (typeof input !== 'string') return false;
  const text = input.replace(/^\uFEFF/, '').replace(/^(?:\s|;[^\n]*)*/, '');
  return /^\(\s*define\s*\(\s*problem(?![^\s()])/i.test(text);
}

/**
 * Reads a problem of the IPC-2018 Snake domain (docs/cli.md#pddl-input): cell `pos<a>-<b>` is
 * `[a, b]`. Anything the reader does not know (a predicate, an arity, an object, a section, a
 * requirement), and any fact that does not fit the game, is refused with an `InputError` on
 * `input` that names the line and the fact; nothing is returned half read.
 */
export function snakeInstanceFromPddl(text: string): SnakePddlInstance {
  const problem = readProblem(readSexp(text));
  const cells = readObjects(problem.objects);
  const facts = readInit(problem.init, cells);
  checkAdjacency(facts, cells, problem.init.line);
  const body = snakeChain(facts, cells, problem.init.line);
  const onBody = new Set(body);
  const walls = cells.all
    .filter((i) => !cells.present.has(i) || (facts.blocked.has(i) && !onBody.has(i)))
    .sort((a, b) => a - b);
  const wallSet = new Set(walls);
  const spawn = spawnChain(facts, cells, wallSet, problem.init.line);
  const apples = [...facts.ispoint.entries()].map(([cell, fact]) => {
    if (wallSet.has(cell))
      throw at(fact.line, `${show(fact)}: an apple on a wall (a blocked cell off the snake)`);
    return cell;
  });
  checkGoal(problem.goal, cells, new Set([...apples, ...spawn]));
  return {
    width: cells.width,
    height: cells.height,
    length: body.length,
    body: body.map((i) => cells.cell(i)),
    apples: apples.map((i) => cells.cell(i)),
    order: 'any',
    ...(walls.length > 0 ? { walls: walls.map((i) => cells.cell(i)) } : {}),
    ...(spawn.length > 0 ? { spawn: spawn.map((i) => cells.cell(i)) } : {}),
    tail: 'strict',
  };
}

// --- s-expressions: a reader written here, since PDDL needs no more than atoms, lists and `;` comments.

interface Atom {
  kind: 'atom';
  text: string;
  line: number;
}

interface List {
  kind: 'list';
  items: Sexp[];
  line: number;
}

type Sexp = Atom | List;

function at(line: number, reason: string): InputError {
  return new InputError('input', `line ${line}: ${reason}`);
}

/** The one top-level list of `text`, with each atom's and list's line (from 1). */
function readSexp(text: string): List {
  const stack: List[] = [];
  let top: List | undefined;
  let line = 1;
  // One token a match: a line break, other white space, a comment, a parenthesis or an atom.
  const token = /(\n)|[^\S\n]+|;[^\n]*|(\()|(\))|[^\s();]+/gy;
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    if (match[1] !== undefined) {
      line++;
    } else if (match[2] !== undefined) {
      if (top !== undefined && stack.length === 0)
        throw at(line, "text after the problem's closing parenthesis");
      const list: List = { kind: 'list', items: [], line };
      stack.at(-1)?.items.push(list);
      stack.push(list);
    } else if (match[3] !== undefined) {
      const closed = stack.pop();
      if (closed === undefined) throw at(line, "')' with no '(' open");
      if (stack.length === 0) top = closed;
    } else if (!/^[\s;]/.test(match[0])) {
      const atom: Atom = { kind: 'atom', text: match[0], line };
      const open = stack.at(-1);
      if (open === undefined) {
        throw at(
          line,
          top === undefined
            ? `expected '(define', got '${show(atom)}'`
            : "text after the problem's closing parenthesis",
        );
      }
      open.items.push(atom);
    }
  }
  if (stack.length > 0) throw at(stack.at(-1)!.line, "'(' never closed");
  if (top === undefined) throw new InputError('input', 'no PDDL problem: the text holds no list');
  return top;
}

/** An s-expression as PDDL text on one line, cut short (an error message quotes it, whatever its size). */
function show(sexp: Sexp): string {
  const text = showNested(sexp, 0);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text;
}

const SHOWN_CHARS = 200;

function showNested(sexp: Sexp, depth: number): string {
  if (sexp.kind === 'atom') return sexp.text;
  if (depth >= 8) return '(...)';
  const items: string[] = [];
  let length = 0;
  for (const item of sexp.items) {
    if (length > SHOWN_CHARS) break;
    const text = showNested(item, depth + 1);
    items.push(text);
    length += text.length + 1;
  }
  return `(${items.join(' ')}${items.length < sexp.items.length ? ' ...' : ''})`;
}

function atomText(sexp: Sexp | undefined): string | undefined {
  return sexp?.kind === 'atom' ? sexp.text.toLowerCase() : undefined;
}

// --- the problem's sections.

interface Problem {
  objects: List;
  init: List;
  goal: List;
}

const REQUIREMENTS = new Set([':strips', ':equality', ':negative-preconditions']);

function readProblem(top: List): Problem {
  const [define, head, ...rest] = top.items;
  if (atomText(define) !== 'define')
    throw at(top.line, `expected (define (problem NAME) ...), got ${show(top)}`);
  if (
    head?.kind !== 'list' ||
    head.items.length !== 2 ||
    atomText(head.items[0]) !== 'problem' ||
    head.items[1]!.kind !== 'atom'
  ) {
    throw at(
      head?.line ?? top.line,
      `expected (problem NAME), got ${head === undefined ? 'nothing' : show(head)}`,
    );
  }
  const sections = new Map<string, List>();
  for (const section of rest) {
    const name = atomText(section.kind === 'list' ? section.items[0] : undefined);
    if (section.kind !== 'list' || name === undefined || !name.startsWith(':')) {
      throw at(section.line, `expected a section such as (:init ...), got ${show(section)}`);
    }
    if (sections.has(name)) throw at(section.line, `a second (${name} ...) section`);
    sections.set(name, section);
  }
  // The domain first, so that another domain's problem is refused for that and not for its facts.
  const domain = sections.get(':domain');
  if (domain === undefined) throw at(top.line, 'no (:domain snake) section');
  const domainName = domain.items[1];
  if (domain.items.length !== 2 || domainName?.kind !== 'atom') {
    throw at(domain.line, `expected (:domain snake), got ${show(domain)}`);
  }
  if (domainName.text.toLowerCase() !== 'snake') {
    throw at(domain.line, `domain ${domainName.text}: only the IPC-2018 snake domain is read`);
  }
  for (const [name, section] of sections) {
    if (name === ':requirements') {
      for (const requirement of section.items.slice(1)) {
        if (requirement.kind !== 'atom' || !REQUIREMENTS.has(requirement.text.toLowerCase()))
          throw at(requirement.line, `requirement ${show(requirement)} is not read`);
      }
    } else if (![':domain', ':objects', ':init', ':goal'].includes(name)) {
      throw at(section.line, `section ${name} is not read`);
    }
  }
  const need = (name: string): List => {
    const section = sections.get(name);
    if (section === undefined) throw at(top.line, `no (${name} ...) section`);
    return section;
  };
  const goal = need(':goal');
  if (goal.items.length !== 2) throw at(goal.line, `expected (:goal CONDITION), got ${show(goal)}`);
  return { objects: need(':objects'), init: need(':init'), goal };
}

/** The grid the objects span: cell `pos<a>-<b>` is index `b * width + a`. */
interface Cells {
  width: number;
  height: number;
  /** Each object's name (lower case) to its cell's index. */
  byName: Map<string, number>;
  /** The cells with an object. */
  present: Set<number>;
  /** Every cell of the grid, by index. */
  all: number[];
  cell(i: number): Cell;
  name(i: number): string;
}

const DUMMY = 'dummypoint';

function readObjects(section: List): Cells {
  const coordinates = new Map<string, Cell>();
  for (const object of section.items.slice(1)) {
    if (object.kind !== 'atom') throw at(object.line, `expected object names, got ${show(object)}`);
    if (object.text === '-') throw at(object.line, 'typed objects (NAME - TYPE) are not read');
    const name = object.text.toLowerCase();
    if (name === DUMMY) continue; // the domain's constant, listed again
    const match = /^pos(0|[1-9]\d*)-(0|[1-9]\d*)$/.exec(name);
    if (match === null) throw at(object.line, `unknown object ${object.text}: cells are named pos<x>-<y>`);
    const cell: Cell = [Number(match[1]), Number(match[2])];
    if (cell[0] >= SNAKE_MAX_SIDE || cell[1] >= SNAKE_MAX_SIDE)
      throw at(object.line, `object ${object.text} lies beyond ${SNAKE_MAX_SIDE} cells a side`);
    coordinates.set(name, cell);
  }
  if (coordinates.size === 0) throw at(section.line, 'no cell among the objects');
  const width = Math.max(...[...coordinates.values()].map(([x]) => x)) + 1;
  const height = Math.max(...[...coordinates.values()].map(([, y]) => y)) + 1;
  const byName = new Map([...coordinates].map(([name, [x, y]]) => [name, y * width + x]));
  return {
    width,
    height,
    byName,
    present: new Set(byName.values()),
    all: Array.from({ length: width * height }, (_, i) => i),
    cell: (i) => [i % width, Math.floor(i / width)],
    name: (i) => `pos${i % width}-${Math.floor(i / width)}`,
  };
}

/** The facts of :init, each cell's fact kept for the errors that name it. */
interface Facts {
  adjacent: Map<string, List>;
  head: Map<number, List>;
  tail: Map<number, List>;
  next: Map<number, { to: number; fact: List }>;
  blocked: Set<number>;
  spawn: Map<number | typeof DUMMY, List>;
  nextSpawn: Map<number, { to: number | typeof DUMMY; fact: List }>;
  ispoint: Map<number, List>;
}

/** The domain's predicates (lower case) with their arities. */
const PREDICATES = new Map([
  ['isadjacent', 2],
  ['tailsnake', 1],
  ['headsnake', 1],
  ['nextsnake', 2],
  ['blocked', 1],
  ['spawn', 1],
  ['nextspawn', 2],
  ['ispoint', 1],
]);

function readInit(section: List, cells: Cells): Facts {
  const facts: Facts = {
    adjacent: new Map(),
    head: new Map(),
    tail: new Map(),
    next: new Map(),
    blocked: new Set(),
    spawn: new Map(),
    nextSpawn: new Map(),
    ispoint: new Map(),
  };
  for (const fact of section.items.slice(1)) {
    if (fact.kind !== 'list' || fact.items.length === 0 || !fact.items.every((a) => a.kind === 'atom')) {
      throw at(fact.line, `expected a fact (PREDICATE OBJECT ...), got ${show(fact)}`);
    }
    const texts = fact.items.map((a) => a.text);
    const [predicate, ...args] = texts.map((t) => t.toLowerCase()) as [string, ...string[]];
    const arity = PREDICATES.get(predicate);
    if (arity === undefined) throw at(fact.line, `unknown fact ${show(fact)}`);
    if (args.length !== arity)
      throw at(
        fact.line,
        `${show(fact)}: ${texts[0]} takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}`,
      );
    // dummypoint ends the spawn chain: it is read as the spawn pointer and NEXTSPAWN's successor only.
    const dummyAllowed = (k: number): boolean =>
      (predicate === 'spawn' && k === 0) || (predicate === 'nextspawn' && k === 1);
    const objects = args.map((name, k): number | typeof DUMMY => {
      if (name === DUMMY && dummyAllowed(k)) return DUMMY;
      const cell = cells.byName.get(name);
      if (cell === undefined)
        throw at(
          fact.line,
          `${show(fact)}: ${name === DUMMY ? 'dummypoint is no cell' : `unknown object ${texts[k + 1]}`}`,
        );
      return cell;
    });
    const [a, b] = objects as [number, number];
    switch (predicate) {
      case 'isadjacent':
        facts.adjacent.set(`${a},${b}`, fact);
        break;
      case 'headsnake':
        facts.head.set(a, fact);
        break;
      case 'tailsnake':
        facts.tail.set(a, fact);
        break;
      case 'nextsnake': {
        const known = facts.next.get(a);
        if (known !== undefined && known.to !== b)
          throw at(
            fact.line,
            `${show(fact)}: ${cells.name(a)} already links to ${cells.name(known.to)} (line ${known.fact.line})`,
          );
        facts.next.set(a, { to: b, fact });
        break;
      }
      case 'blocked':
        facts.blocked.add(a);
        break;
      case 'spawn':
        facts.spawn.set(objects[0]!, fact);
        break;
      case 'nextspawn': {
        const to = objects[1]!;
        const known = facts.nextSpawn.get(a);
        if (known !== undefined && known.to !== to)
          throw at(
            fact.line,
            `${show(fact)}: ${cells.name(a)} already spawns before ${known.to === DUMMY ? DUMMY : cells.name(known.to)} (line ${known.fact.line})`,
          );
        facts.nextSpawn.set(a, { to, fact });
        break;
      }
      case 'ispoint':
        facts.ispoint.set(a, fact);
        break;
    }
  }
  return facts;
}

/** Whether cells `a` and `b` are 4-neighbours on the grid. */
function neighbours(cells: Cells, a: number, b: number): boolean {
  const [ax, ay] = cells.cell(a);
  const [bx, by] = cells.cell(b);
  return Math.abs(ax - bx) + Math.abs(ay - by) === 1;
}

/** ISADJACENT must be the grid's 4-neighbour relation among the cells present, both ways. */
function checkAdjacency(facts: Facts, cells: Cells, initLine: number): void {
  for (const [key, fact] of facts.adjacent) {
    const [a, b] = key.split(',').map(Number) as [number, number];
    if (!neighbours(cells, a, b)) throw at(fact.line, `${show(fact)}: the cells are not 4-neighbours`);
  }
  for (const a of [...cells.present].sort((x, y) => x - y)) {
    const [x, y] = cells.cell(a);
    const around: Cell[] = [
      [x + 1, y],
      [x - 1, y],
      [x, y + 1],
      [x, y - 1],
    ];
    for (const [bx, by] of around) {
      const b = by * cells.width + bx;
      const inside = bx >= 0 && by >= 0 && bx < cells.width && by < cells.height;
      if (inside && cells.present.has(b) && !facts.adjacent.has(`${a},${b}`)) {
        throw at(
          initLine,
          `no (ISADJACENT ${cells.name(a)} ${cells.name(b)}): every two neighbouring cells must be adjacent, both ways`,
        );
      }
    }
  }
}

/** The one fact of a kind that must occur once, such as (headsnake c). */
function single<K>(found: Map<K, List>, what: string, initLine: number): K {
  const entries = [...found];
  if (entries.length === 0) throw at(initLine, `(:init) has no (${what} ...) fact`);
  if (entries.length > 1)
    throw at(
      entries[1]![1].line,
      `${show(entries[1]![1])}: a second ${what} (first: ${show(entries[0]![1])})`,
    );
  return entries[0]![0];
}

/** The snake's cells, head first: headsnake, then nextsnake links to tailsnake, every cell blocked. */
function snakeChain(facts: Facts, cells: Cells, initLine: number): number[] {
  const head = single(facts.head, 'headsnake', initLine);
  const tail = single(facts.tail, 'tailsnake', initLine);
  const body = [head];
  const onSnake = new Set([head]);
  const used = new Set<number>();
  for (let cell = head; cell !== tail;) {
    const link = facts.next.get(cell);
    if (link === undefined)
      throw at(
        initLine,
        `the snake breaks off at ${cells.name(cell)}: no (nextsnake ${cells.name(cell)} ...) leads on to the tailsnake ${cells.name(tail)}`,
      );
    if (onSnake.has(link.to)) throw at(link.fact.line, `${show(link.fact)}: the snake runs into itself`);
    if (!neighbours(cells, cell, link.to))
      throw at(link.fact.line, `${show(link.fact)}: the cells are not 4-neighbours`);
    used.add(cell);
    onSnake.add(link.to);
    body.push(link.to);
    cell = link.to;
  }
  for (const [from, link] of facts.next) {
    if (!used.has(from))
      throw at(link.fact.line, `${show(link.fact)}: not on the snake from headsnake to tailsnake`);
  }
  if (body.length === 1) {
    // The domain's plain move needs a nextsnake link: a one-cell snake may only move to eat.
    throw at(
      facts.head.get(head)!.line,
      'a one-cell snake (headsnake = tailsnake) is not read: in this domain it can only move to eat',
    );
  }
  for (const cell of body) {
    if (!facts.blocked.has(cell))
      throw at(
        initLine,
        `the snake's cell ${cells.name(cell)} is not blocked: no (blocked ${cells.name(cell)})`,
      );
  }
  return body;
}

/** The cells apples spawn on, in order: from the spawn pointer along NEXTSPAWN to dummypoint. */
function spawnChain(facts: Facts, cells: Cells, walls: Set<number>, initLine: number): number[] {
  const start = single(facts.spawn, 'spawn', initLine);
  const chain: number[] = [];
  const onChain = new Set<number>();
  for (let cell = start; cell !== DUMMY;) {
    const link = facts.nextSpawn.get(cell);
    if (link === undefined)
      throw at(
        initLine,
        `the spawn chain breaks off at ${cells.name(cell)}: no (NEXTSPAWN ${cells.name(cell)} ...) leads on to dummypoint`,
      );
    if (walls.has(cell))
      throw at(link.fact.line, `${show(link.fact)}: ${cells.name(cell)} is a wall, where no apple can spawn`);
    chain.push(cell);
    onChain.add(cell);
    if (link.to !== DUMMY && onChain.has(link.to))
      throw at(link.fact.line, `${show(link.fact)}: the spawn chain runs in a loop`);
    cell = link.to;
  }
  for (const [from, link] of facts.nextSpawn) {
    if (!onChain.has(from))
      throw at(link.fact.line, `${show(link.fact)}: not on the spawn chain from (spawn ...) to dummypoint`);
  }
  return chain;
}

/** The goal must be no apple left: (and (not (ispoint c)) ...) over the apples and spawn cells. */
function checkGoal(section: List, cells: Cells, expected: Set<number>): void {
  const condition = section.items[1]!;
  const literals =
    condition.kind === 'list' && atomText(condition.items[0]) === 'and'
      ? condition.items.slice(1)
      : [condition];
  const named = new Set<number>();
  for (const literal of literals) {
    const inner =
      literal.kind === 'list' && atomText(literal.items[0]) === 'not' && literal.items.length === 2
        ? literal.items[1]
        : undefined;
    const name =
      inner?.kind === 'list' && inner.items.length === 2 && atomText(inner.items[0]) === 'ispoint'
        ? atomText(inner.items[1])
        : undefined;
    if (name === undefined)
      throw at(literal.line, `goal ${show(literal)}: only (not (ispoint CELL)) goals are read`);
    const cell = cells.byName.get(name);
    if (cell === undefined) throw at(literal.line, `goal ${show(literal)}: unknown object ${name}`);
    if (!expected.has(cell))
      throw at(
        literal.line,
        `goal ${show(literal)}: ${cells.name(cell)} holds no apple and is no spawn cell`,
      );
    named.add(cell);
  }
  for (const cell of expected) {
    if (!named.has(cell))
      throw at(
        section.line,
        `the goal lacks (not (ispoint ${cells.name(cell)})): it must clear every apple and spawn cell`,
      );
  }
}
