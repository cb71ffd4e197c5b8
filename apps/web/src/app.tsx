import type { JobResource, JobStatus } from '@satfarm/queue';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';

import { FarmApiClient } from './api/farm-api.client';
import { FarmConnectionContext } from './api/farm-connection.context';
import { usePolling } from './api/polling.hook';
import { connectProgress } from './api/progress.socket';
import { FarmGlanceView } from './views/farm-glance.view';
import { JobDetailView } from './views/job-detail.view';
import { JobListView } from './views/job-list.view';
import { SubmitFormView } from './views/submit-form.view';

const KEY_STORAGE = 'satfarm.apiKey';

/** The job shown, from the page's hash (`#/jobs/<id>`). */
function useSelectedJob(): string | undefined {
  const read = (): string | undefined => /^#\/jobs\/(.+)$/.exec(location.hash)?.[1];
  const [selected, setSelected] = useState(read);
  useEffect(() => {
    const onChange = (): void => setSelected(read());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return selected;
}

/** The dashboard: the farm at a glance, the submit form, the job list, and the job shown. */
export function App() {
  const base = useMemo(() => new URL('.', location.href), []);
  const [apiKey, setApiKey] = useState(() => localStorage.getItem(KEY_STORAGE) ?? undefined);
  const farm = useMemo(() => {
    const api = new FarmApiClient(base, () => apiKey);
    return { api, socket: connectProgress(base, apiKey) };
  }, [base, apiKey]);
  useEffect(() => () => void farm.socket.close(), [farm]);
  const selected = useSelectedJob();
  const overview = usePolling(() => farm.api.farm(), 2000, farm);
  const jobs = usePolling(() => farm.api.listJobs(25), 2000, selected);
  const [submitted, setSubmitted] = useState<JobResource[]>([]);
  // The status the job view last showed, newer than the list's last read.
  const [live, setLive] = useState<{ jobId: string; status: JobStatus }>();
  const onStatus = useCallback((jobId: string, status: JobStatus) => setLive({ jobId, status }), []);
  const unauthorized = overview.error?.status === 401 || jobs.error?.status === 401;

  const askKey = (): void => {
    const key = prompt('API key of this farm (kept in this browser)', apiKey ?? '');
    if (key === null) return;
    if (key.trim() === '') localStorage.removeItem(KEY_STORAGE);
    else localStorage.setItem(KEY_STORAGE, key.trim());
    setApiKey(key.trim() === '' ? undefined : key.trim());
  };

  const listed = jobs.value?.jobs ?? [];
  // A job just submitted shows at once, before the next poll lists it.
  const shown = [...submitted.filter((s) => !listed.some((j) => j.id === s.id)), ...listed].map((j) =>
    j.id === live?.jobId ? { ...j, status: live.status } : j,
  );
  return (
    <FarmConnectionContext.Provider value={farm}>
      <header class="top">
        <h1>
          <a href="#/">satfarm</a>
        </h1>
        <FarmGlanceView farm={overview.value} />
        <nav>
          <a href="docs">API</a>
          <a href="queues">queues</a>
          <a href="metrics">metrics</a>
          <button type="button" class="link" onClick={askKey}>
            {apiKey ? 'API key ✓' : 'API key'}
          </button>
        </nav>
      </header>
      {unauthorized && (
        <p class="error banner">
          This farm needs an API key.{' '}
          <button type="button" class="link" onClick={askKey}>
            Enter it
          </button>
        </p>
      )}
      <main>
        <aside>
          <h2>Submit a job</h2>
          <SubmitFormView
            onSubmitted={(id) => {
              void farm.api.job(id).then((job) => setSubmitted((s) => [job, ...s].slice(0, 5)));
              location.hash = `#/jobs/${id}`;
            }}
          />
          <h2>Jobs</h2>
          <JobListView jobs={shown} selected={selected} />
        </aside>
        <section class="main">
          {selected ? (
            <JobDetailView key={selected} jobId={selected} onStatus={onStatus} />
          ) : (
            <div class="welcome">
              <h2>Watch the farm solve</h2>
              <p>
                Submit a job, or open one from the list: its horizons appear as the workers take them, the
                bounds close in as answers arrive, and the answer is drawn when it is proven.
              </p>
            </div>
          )}
        </section>
      </main>
    </FarmConnectionContext.Provider>
  );
}
