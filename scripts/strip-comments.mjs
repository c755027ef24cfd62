// The loader (dist/boot.js) is in the first load, and half of its gzipped bytes were its
// comments. This drops the lines that are only a comment (`// …`) from the built copy; the
// source keeps them. It refuses a file where such a line could be inside a string (a template
// literal spanning lines, or a block comment) rather than guess.
// Usage: node scripts/strip-comments.mjs dist/boot.js [more files]
import { readFileSync, writeFileSync } from 'node:fs';

for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const spans = lines.findIndex((l) => (l.match(/`/g) ?? []).length % 2 === 1 || l.includes('/*'));
  if (spans >= 0) throw new Error(`${file}:${spans + 1}: a template literal or block comment spans lines; not stripped`);
  const kept = lines.filter((l) => !/^\s*\/\//.test(l));
  writeFileSync(file, kept.join('\n'));
  console.log(`strip-comments: ${file}: ${lines.length - kept.length} comment lines dropped`);
}
