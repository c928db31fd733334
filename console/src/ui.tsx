import { cloneElement, type ComponentChildren, type VNode } from 'preact';
import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import { api, ApiError, type Page } from './api';

/** The field messages of a `validation_error`'s `detail` (`{field: [messages]}`), after the message. */
const detailOf = (error: unknown): string => {
  const detail = error instanceof ApiError ? error.detail : null;
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return '';
  const parts = Object.entries(detail).flatMap(([name, value]) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? [`${name}: ${value.join(', ')}`] : []));
  return parts.length ? ` ${parts.join('; ')}` : '';
};

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message + detailOf(error) : String(error));

/** The server's message of a refused request, announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

/** A write: `run` calls it, `busy` while it runs, `error` holds the server's refusal. */
export function useWrite<A extends unknown[]>(write: (...args: A) => Promise<unknown>, done?: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await write(...args);
      done?.();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}

/** A button for one write, with the server's message beside it when refused. */
export function Action({ label, run, danger, disabled }: { label: string; run: () => Promise<unknown>; danger?: boolean; disabled?: boolean }) {
  const write = useWrite(run);
  return (
    <span class="action">
      <button type="button" class={danger ? 'danger' : ''} disabled={write.busy || disabled} onClick={() => void write.run()}>
        {label}
      </button>
      <ErrorMessage error={write.error} />
    </span>
  );
}

/** One page of a list at `path` (limit/offset envelope); `go` follows its next/previous links. */
export function usePage<T>(path: string | null) {
  const [url, setUrl] = useState(path);
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => setUrl(path), [path]);
  useEffect(() => {
    if (!url) return;
    let live = true;
    api<Page<T>>('GET', url).then(
      (answer) => live && (setPage(answer), setError(null)),
      (failure: unknown) => live && setError(failure),
    );
    return () => void (live = false);
  }, [url, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { page, error, reload, go: setUrl };
}

/** Previous / next links of a page, and where it is. */
export function Pager<T>({ page, go, label }: { page: Page<T> | null; go: (url: string) => void; label: string }) {
  if (!page) return null;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={!page.previous} onClick={() => page.previous && go(page.previous)}>
        Previous
      </button>
      <span>
        {page.results.length} shown of {page.count}
      </span>
      <button type="button" disabled={!page.next} onClick={() => page.next && go(page.next)}>
        Next
      </button>
    </nav>
  );
}

/** A labelled control: the label names its one child (by a generated id), and a hint describes it. */
export function Labeled({ label, children, hint }: { label: string; children: VNode; hint?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': hint ? `${id}-hint` : undefined })}
      {hint ? <small id={`${id}-hint`}>{hint}</small> : null}
    </div>
  );
}

/** A form whose submit runs a write and shows the server's message when refused. */
export function WriteForm({ label, submit, children, onDone, reset = true }: { label: string; submit: (form: FormData) => Promise<unknown>; children: ComponentChildren; onDone?: () => void; reset?: boolean }) {
  const write = useWrite(submit, onDone);
  return (
    <form
      class="write"
      aria-label={label}
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        if ((await write.run(new FormData(form))) && reset) form.reset();
      }}
    >
      {children}
      <button type="submit" disabled={write.busy}>
        {label}
      </button>
      <ErrorMessage error={write.error} />
    </form>
  );
}

export const text = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();
export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** A group of checkboxes, one per name (the form field is the name, `on` when checked), with its legend. */
export function Checks({ legend, names, checked = () => false }: { legend: string; names: readonly string[]; checked?: (name: string) => boolean }) {
  return (
    <fieldset class="flags">
      <legend>{legend}</legend>
      {names.map((name) => (
        <label key={name}>
          <input type="checkbox" name={name} defaultChecked={checked(name)} /> {name}
        </label>
      ))}
    </fieldset>
  );
}

/** The names of `names` checked in the form. */
export const checkedIn = (form: FormData, names: readonly string[]): string[] => names.filter((name) => form.get(name) === 'on');
