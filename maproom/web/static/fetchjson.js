// One JSON fetch for every module of the page: a timeout, and an error for a non-2xx answer.
// `init` adds fetch options (`cache`, `referrerPolicy`).
export async function fetchJson(url, timeoutMs = 8000, init = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    if (!response.ok) throw new Error(`${response.status} ${url}`);
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}
