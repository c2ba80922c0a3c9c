// Following the project's live stream. EventSource resumes by itself with Last-Event-ID after
// a dropped connection; when the server refuses a reconnect (or the source closes) a new one
// is opened with ?lastEventId= after a growing pause. Handlers run one at a time, in order.
export function follow(eventsUrl, handlers) {
  let delay = 1000;
  let queue = Promise.resolve();
  const run = (id, task) => {
    queue = queue.then(task).catch((e) => console.warn(e)).then(() => {
      if (id) window.maproom.lastEventId = Number(id);
    });
  };
  const connect = () => {
    const last = window.maproom.lastEventId;
    const url = last !== null ? `${eventsUrl}?lastEventId=${last}` : eventsUrl;
    const events = new EventSource(url);
    events.addEventListener("open", () => { delay = 1000; });
    for (const [kind, handle] of Object.entries(handlers)) {
      events.addEventListener(kind, (e) => run(e.lastEventId, () => handle(JSON.parse(e.data))));
    }
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) {
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      }
    });
  };
  connect();
}
