import { useState } from 'preact/hooks';
import { api, env, type Page } from '../api';
import { Action, Checks, ErrorMessage, Labeled, Pager, text, usePage, WriteForm } from '../ui';
import { CollectionSelect, type Collection } from './collections';

type Field = { key: string; name: string; path: string; type: string; meta: Record<string, unknown>; required: boolean; localizable: boolean; searchable: boolean; vectorizable: boolean };

const TYPES = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'time', 'datetime', 'json', 'reference', 'relation', 'object', 'array', 'nested', 'vector'];
const ITEMS = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'time', 'datetime', 'reference', 'object'];
const FLAGS = ['required', 'localizable', 'searchable', 'vectorizable', 'nullable', 'multiple', 'private'] as const;
const isContainer = (f: Field) => f.type === 'object' || (f.type === 'array' && f.meta.items === 'object');

/** The type options a field of `type` takes, from the form (`meta`). */
function metaOf(type: string, form: FormData): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (type === 'reference' || type === 'relation' || (type === 'array' && text(form, 'items') === 'reference')) meta.collections = [text(form, 'target')];
  if (type === 'array') meta.items = text(form, 'items');
  if (type === 'nested') Object.assign(meta, { component: text(form, 'component'), component_version: text(form, 'component_version') });
  if (type === 'vector') meta.dimensions = Number(text(form, 'dimensions'));
  const choices = text(form, 'enum');
  if (choices) meta.enum = choices.split(',').map((c) => c.trim());
  return meta;
}

function NewField({ fieldsPath, parent, done }: { fieldsPath: string; parent: string | null; done: () => void }) {
  const [type, setType] = useState('string');
  const collections = usePage<Collection>(env('/collections/tree/')).page?.results ?? [];
  const components = usePage<{ key: string; name: string }>(type === 'nested' ? env('/components/') : null).page?.results ?? [];
  return (
    <WriteForm
      label={parent ? `Add field inside ${parent}` : 'Add field'}
      onDone={done}
      submit={(form) => {
        const body: Record<string, unknown> = { key: text(form, 'key'), name: text(form, 'name'), type, parent, meta: metaOf(type, form) };
        for (const flag of FLAGS) body[flag] = form.get(flag) === 'on';
        return api('POST', fieldsPath, body);
      }}
    >
      <Labeled label="Field key">
        <input name="key" required />
      </Labeled>
      <Labeled label="Display name">
        <input name="name" />
      </Labeled>
      <Labeled label="Type">
        <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </Labeled>
      {type === 'array' ? (
        <Labeled label="Items">
          <select name="items">
            {ITEMS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Labeled>
      ) : null}
      {type === 'reference' || type === 'relation' || type === 'array' ? <CollectionSelect name="target" label="Target collection (references)" collections={collections} /> : null}
      {type === 'nested' ? (
        <>
          <Labeled label="Component">
            <select name="component">
              {components.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.name}
                </option>
              ))}
            </select>
          </Labeled>
          <Labeled label="Component version key">
            <input name="component_version" />
          </Labeled>
        </>
      ) : null}
      {type === 'vector' ? (
        <Labeled label="Dimensions">
          <select name="dimensions">
            {[256, 384, 768, 1024, 1536].map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </Labeled>
      ) : null}
      {type === 'string' || type === 'integer' ? (
        <Labeled label="Allowed values (comma separated, optional)">
          <input name="enum" />
        </Labeled>
      ) : null}
      <Checks legend="Options" names={FLAGS} />
    </WriteForm>
  );
}

/** One level of a version's field tree, with the fields inside containers below their parent. */
function FieldList({ fieldsPath, path, editable }: { fieldsPath: string; path: string | null; editable: boolean }) {
  const list = usePage<Field>(path ? `${fieldsPath}?path=${encodeURIComponent(path)}&mode=children` : fieldsPath);
  const flags = (f: Field) => FLAGS.filter((flag) => (f as unknown as Record<string, boolean>)[flag]).join(', ');
  return (
    <div class="fields">
      <ErrorMessage error={list.error} />
      <table>
        <caption class="sr-only">Fields{path ? ` of ${path}` : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Type</th>
            <th scope="col">Options</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(list.page as Page<Field> | null)?.results.map((f) => (
            <tr key={f.path}>
              <td>{f.path}</td>
              <td>
                {f.type}
                {f.meta.items ? ` of ${String(f.meta.items)}` : ''}
              </td>
              <td>{flags(f)}</td>
              <td>{editable ? <Action label={`Delete field ${f.key}`} danger run={async () => (await api('DELETE', `${fieldsPath}field/?path=${encodeURIComponent(f.path)}`), list.reload())} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={list.page} go={list.go} label="Fields" />
      {list.page?.results.filter(isContainer).map((f) => (
        <details key={f.path}>
          <summary>Fields inside {f.path}</summary>
          <FieldList fieldsPath={fieldsPath} path={f.path} editable={editable} />
        </details>
      ))}
      {editable ? <NewField fieldsPath={fieldsPath} parent={path} done={list.reload} /> : null}
    </div>
  );
}

/** The field editor of one schema version (drafts only take changes). */
export function FieldEditor({ fieldsPath, editable }: { fieldsPath: string; editable: boolean }) {
  return <FieldList key={fieldsPath} fieldsPath={fieldsPath} path={null} editable={editable} />;
}
