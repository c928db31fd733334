import { expect } from 'chai';
import { collectionView, resourceView } from '../../api/views.js';

describe('read-api views: read-model documents as the specification objects', () => {
  it('keeps the fields in the object order, a missing one as null, and drops internal ones (_id, env)', () => {
    const view = resourceView({ _id: 'k1', env: 'e1', vectors_size: 0, key: 'k1', folder: 'f1', name: '', external_id: undefined, _internal: 1 });
    expect(Object.keys(view)).to.deep.equal(['key', 'name', 'folder', 'content_type', 'external_id', 'created_at', 'resource_owner', 'current_revision', 'vectors_size']);
    expect(view).to.deep.equal({
      key: 'k1',
      name: '',
      folder: 'f1',
      content_type: null,
      external_id: null,
      created_at: null,
      resource_owner: null,
      current_revision: null,
      vectors_size: 0,
    });
  });

  it('keeps false and nested values as they are, in a new object', () => {
    const path = ['a', 'b'];
    const doc = { _id: 'c1', key: 'c1', strict_reference: false, path };
    const view = collectionView(doc);
    expect(view).to.include({ strict_reference: false, path });
    expect(view).to.not.equal(doc);
  });
});
