import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  /** Loads again (the refresh buttons); the data shown stays until the new answer arrives. */
  reload(): void;
}

/** Runs `load` when `deps` change and on reload; an answer that arrives after a newer request is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [version, setVersion] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => request === latest.current && setState({ data, loading: false }),
      (error: Error) => request === latest.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { ...state, reload };
}
