import type { JobResource, JobStatus } from '@satfarm/queue';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';

import { FarmApiClient } from './api/farm-api.client';
import { FarmConnectionContext } from './api/farm-connection.context';
import { usePolling } from './api/polling.hook';
import { connectProgress } from './api/progress.socket';
import { parseRoute, type Route } from './model/route.model';
import { BatchResourceView } from './views/batch-detail.view';
import { BatchListView } from './views/batch-list.view';
import { FarmGlanceView } from './views/farm-glance.view';
import { JobDetailView } from './views/job-detail.view';
import { JobListView } from './views/job-list.view';
import { SubmitFormView } from './views/submit-form.view';
import { WorkersView } from './views/workers.view';

const KEY_STORAGE = 'satfarm.apiKey';

/** What the page shows, from its hash (`#/jobs/<id>`, `#/batches/<id>`, `#/workers`). */
function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

const TABS = [
  { view: 'jobs', label: 'Jobs', hash: '#/' },
  { view: 'batches', label: 'Batches', hash: '#/batches' },
  { view: 'workers', label: 'Workers', hash: '#/workers' },
] as const;

/**
 * The dashboard: the farm at a glance, and a tab each for the jobs (the submit form, the job list
 * and the job shown), the batches and the workers.
 */
export function App() {
  const base = useMemo(() => new URL('.', location.href), []);
  const [apiKey, setApiKey] = useState(() => localStorage.getItem(KEY_STORAGE) ?? undefined);
  const farm = useMemo(() => {
    const api = new FarmApiClient(base, () => apiKey);
    return { api, socket: connectProgress(base, apiKey) };
  }, [base, apiKey]);
  useEffect(() => () => void farm.socket.close(), [farm]);
  const route = useRoute();
  const selected = route.view === 'jobs' ? route.jobId : undefined;
  const overview = usePolling(() => farm.api.farm(), 2000, farm);
  const [submitted, setSubmitted] = useState<JobResource[]>([]);
  // The status the job view last showed, newer than the list's last read.
  const [live, setLive] = useState<{ jobId: string; status: JobStatus }>();
  const onStatus = useCallback((jobId: string, status: JobStatus) => setLive({ jobId, status }), []);
  const unauthorized = overview.error?.status === 401;

  const askKey = (): void => {
    const key = prompt('API key of this farm (kept in this browser)', apiKey ?? '');
    if (key === null) return;
    if (key.trim() === '') localStorage.removeItem(KEY_STORAGE);
    else localStorage.setItem(KEY_STORAGE, key.trim());
    setApiKey(key.trim() === '' ? undefined : key.trim());
  };

  return (
    <FarmConnectionContext.Provider value={farm}>
      <header class="top">
        <h1>
          <a href="#/">satfarm</a>
        </h1>
        <nav class="tabs" data-testid="tabs">
          {TABS.map((tab) => (
            <a
              key={tab.view}
              href={tab.hash}
              data-testid={`tab-${tab.view}`}
              class={route.view === tab.view ? 'tab active' : 'tab'}
              aria-current={route.view === tab.view ? 'page' : undefined}
            >
              {tab.label}
            </a>
          ))}
        </nav>
        <FarmGlanceView farm={overview.value} />
        <nav class="links">
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
      {route.view === 'batches' && (
        <main class="wide">
          {route.batchId === undefined ? (
            <BatchListView />
          ) : (
            <BatchResourceView key={route.batchId} batchId={route.batchId} />
          )}
        </main>
      )}
      {route.view === 'workers' && (
        <main class="wide">
          <WorkersView farm={overview.value} />
        </main>
      )}
      {route.view === 'jobs' && (
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
            <JobListView recent={submitted} selected={selected} live={live} />
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
      )}
    </FarmConnectionContext.Provider>
  );
}
