import { expect } from 'chai';
import { Sessions } from '../../read-api/delivery/mcp/sessions.js';
import { truncateTexts } from '../../read-api/delivery/mcp/truncate.js';

describe('agent list tools: cutting text fields', () => {
  it('cuts long texts at the limit, leaves short ones, and names what it cut', () => {
    const data = { title: 'A title that is long', body: 'abcdefghij-klmno', note: 'short' };
    const cut = truncateTexts(data, ['body', 'note'], 10);
    expect(cut.data).to.deep.equal({ title: 'A title that is long', body: 'abcdefghij', note: 'short' });
    expect(cut.truncated).to.deep.equal(['body']);
    expect(data.body).to.equal('abcdefghij-klmno');
  });

  it('steps into arrays and objects, and cuts every translation of a localizable text', () => {
    const data = { sections: [{ text: '0123456789abc' }, { text: 'ok' }], intro: { en: 'long english text', de: 'kurz' }, missing: null };
    const cut = truncateTexts(data, ['sections.text', 'intro', 'absent.path'], 5);
    expect(cut.data).to.deep.equal({ sections: [{ text: '01234' }, { text: 'ok' }], intro: { en: 'long ', de: 'kurz' }, missing: null });
    expect(cut.truncated).to.have.members(['sections.text', 'intro']);
  });

  it('leaves values that are not texts as they are', () => {
    const cut = truncateTexts({ body: 12345678, list: null }, ['body', 'list.x'], 2);
    expect(cut.data).to.deep.equal({ body: 12345678, list: null });
    expect(cut.truncated).to.deep.equal([]);
  });
});

describe('agent sessions', () => {
  const dropped: string[] = [];
  const sessions = () => new Sessions<string>(1_000, (value) => dropped.push(value));

  it('finds a session only on the environment and prefix it was opened on, and touches it', () => {
    const store = sessions();
    store.add('s1', { env: 'e', prefix: 'p', value: 'one', lastUsed: 0 });
    expect(store.use('s1', 'e', 'other', 10)).to.equal(undefined);
    expect(store.use('s1', 'x', 'p', 10)).to.equal(undefined);
    expect(store.use('s1', 'e', 'p', 900)?.value).to.equal('one');
    expect(store.use('s1', 'e', 'p', 1_800)?.value).to.equal('one');
  });

  it('ends a session idle for longer than the limit, on use and on a sweep', () => {
    const store = sessions();
    dropped.length = 0;
    store.add('a', { env: 'e', prefix: 'p', value: 'a', lastUsed: 0 });
    store.add('b', { env: 'e', prefix: 'p', value: 'b', lastUsed: 500 });
    expect(store.use('a', 'e', 'p', 1_001)).to.equal(undefined);
    expect(dropped).to.deep.equal(['a']);
    expect(store.sweep(1_400)).to.equal(0);
    expect(store.sweep(1_501)).to.equal(1);
    expect(dropped).to.deep.equal(['a', 'b']);
    expect(store.size).to.equal(0);
  });
});
