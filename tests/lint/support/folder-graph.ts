/**
 * The module graph seen folder by folder. Each folder is a node: the folder a file sits in directly, so
 * server/src/narration and server/src/narration/domain are two nodes. An import from a file of one folder
 * to a file of another, type-only or not, is an edge between them. A folder cycle is a set of two folders
 * or more that all reach each other (a strongly connected component, found with Tarjan's algorithm).
 *
 * Why not dependency-cruiser's own folder rules (`scope: 'folder'`, `circular`): they count a subfolder's
 * files as its parent's too, so the imports between narration and narration/domain are no edge there, and
 * they cannot leave out single imports (the service registry's types). dependency-cruiser reads the
 * modules; the folders are walked here.
 */
import path from 'node:path';

/** One import between two files, as scripts/checks/module-graph.mjs lists them. */
export interface ModuleImport {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface FolderEdge {
  from: string;
  to: string;
  /** The file imports that make this edge. */
  imports: ModuleImport[];
}

export interface FolderCycle {
  /** One way round the cycle, starting and ending at the same folder: `[a, b, a]`. */
  path: string[];
  /** Every folder of the component, sorted. */
  folders: string[];
  /** Every edge between two of its folders, with the imports that make it. */
  edges: FolderEdge[];
}

export function folderOf(file: string): string {
  return path.posix.dirname(file);
}

/** The edges between folders, with the imports behind each one; imports within a folder are left out. */
export function folderEdges(imports: ModuleImport[]): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const item of imports) {
    const from = folderOf(item.from);
    const to = folderOf(item.to);
    if (from === to) continue;
    const key = `${from}\n${to}`;
    const edge = edges.get(key) ?? { from, to, imports: [] };
    edge.imports.push(item);
    edges.set(key, edge);
  }
  return [...edges.values()].sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
}

/** Every folder cycle, each with one way round it and the imports that close it. */
export function folderCycles(imports: ModuleImport[]): FolderCycle[] {
  const edges = folderEdges(imports);
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (!next.has(edge.from)) next.set(edge.from, []);
    next.get(edge.from)!.push(edge.to);
  }
  return stronglyConnected([...next.keys()].sort(), next)
    .filter((component) => component.length > 1)
    .map((component) => {
      const members = new Set(component);
      const folders = [...component].sort();
      return {
        path: wayRound(folders[0]!, members, next),
        folders,
        edges: edges.filter((edge) => members.has(edge.from) && members.has(edge.to)),
      };
    })
    .sort((a, b) => compare(a.folders[0]!, b.folders[0]!));
}

/** How many imports describeCycles lists for one edge. */
const IMPORTS_SHOWN = 4;

/**
 * The cycles in words: one way round, then every edge of the cycle with the imports that make it,
 * thinnest first: an edge of one or two imports is usually the one to cut.
 */
export function describeCycles(cycles: FolderCycle[]): string {
  return cycles
    .map((cycle) => {
      const lines = [`Folder cycle: ${cycle.path.join(' -> ')}`];
      if (cycle.folders.length > 2) lines.push(`  (all of these reach each other: ${cycle.folders.join(', ')})`);
      const thinnestFirst = [...cycle.edges].sort((a, b) => a.imports.length - b.imports.length);
      for (const edge of thinnestFirst) {
        const count = edge.imports.length;
        lines.push(`  ${edge.from} -> ${edge.to}: ${count} import${count === 1 ? '' : 's'}`);
        for (const item of edge.imports.slice(0, IMPORTS_SHOWN)) {
          lines.push(`    ${item.from} imports ${item.to}${item.typeOnly ? ' (type only)' : ''}`);
        }
        if (count > IMPORTS_SHOWN) lines.push(`    and ${count - IMPORTS_SHOWN} more`);
      }
      return lines.join('\n');
    })
    .join('\n\n');
}

/**
 * The imports from files under `from` (folders and their subfolders) to files under none of `allowed`:
 * for rules such as "infrastructure imports no feature".
 */
export function importsOutside(imports: ModuleImport[], rule: { from: string[]; allowed: string[] }): ModuleImport[] {
  const under = (file: string, folders: string[]) => folders.some((folder) => file.startsWith(`${folder}/`));
  return imports.filter((item) => under(item.from, rule.from) && !under(item.to, rule.allowed));
}

/** Tarjan's algorithm: the strongly connected components of the graph. */
function stronglyConnected(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };

  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}

/** A shortest way from `start` back to itself inside the component (breadth first). */
function wayRound(start: string, members: Set<string>, next: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of [...(next.get(node) ?? [])].sort()) {
      if (!members.has(target)) continue;
      if (target === start) {
        const way = [node];
        while (way[0] !== start) way.unshift(cameFrom.get(way[0]!)!);
        return [...way, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
