// A page's redraws when events come quickly. Each one awaits the server, so they overlap:
// the latest started wins, and an older one that finishes later draws nothing (it would put
// back an old decision, or mark the new one's options with its old seq). While the page's
// own tap is on its way, the live feed's redraws wait: the tap's answer is shown first, and
// the tap's own redraw follows it.
export function redraws() {
  let latest = 0;
  let held = 0;
  return {
    /** A ticket for a redraw starting now, or null while a tap is on its way. */
    begin() {
      return held ? null : ++latest;
    },
    /** Whether the redraw holding `ticket` is still the latest started. */
    current(ticket) {
      return ticket === latest;
    },
    /** Runs a tap's request with the feed's redraws held; those under way draw nothing. */
    async during(request) {
      held += 1;
      latest += 1;
      try {
        return await request();
      } finally {
        held -= 1;
      }
    },
  };
}
