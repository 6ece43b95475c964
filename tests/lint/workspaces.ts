/**
 * Every workspace declares in its package.json the @scriptorium packages it imports, so the graph in
 * the manifests is the graph in the code (dependency-cruiser checks npm packages the same way).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const workspaces: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

const problems: string[] = [];
for (const workspace of workspaces) {
  const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
  const used = new Set<string>();
  for (const file of sources(join(root, workspace, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(@scriptorium\/[a-z-]+)\//g)) used.add(match[1]!);
  }
  used.delete(manifest.name);
  for (const name of used) if (!declared.has(name)) problems.push(`${workspace}/package.json does not declare ${name}, which its code imports`);
}
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exit(problems.length === 0 ? 0 : 1);
