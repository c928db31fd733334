import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Markdown files a newcomer opens first. */
const PAGES = ['README.md', ...readdirSync('docs/guides').map((f) => join('docs/guides', f)), ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

describe('the README and the docs a newcomer reads', () => {
  it('keeps the README to at most 250 lines', () => {
    expect(readFileSync('README.md', 'utf8').trimEnd().split('\n').length).to.be.at.most(250);
  });

  it('links only to files that exist in the repository', () => {
    for (const page of PAGES) {
      const text = readFileSync(page, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        expect(existsSync(join(dirname(page), target as string)), `${page} links to ${target}`).to.equal(true);
      }
    }
  });
});
