"""Where the view goes when a question is asked: to the question, not to the end of the answer.

Gradio's chatbot follows the stream to its last line, so a long 相关附件内容 block pulls the question and the start
of the answer out of view (and the page with it). The chat is built with autoscroll=False and this script, run
once from the page's head, scrolls the chat's own panel so that each new question sits at its top. The panel that
scrolls differs by layout: the message list on a desktop, the whole chat block on a phone (where the block's
height follows the viewport). When the question is outside the window too (the page was scrolled down to the
input box, or a phone's long page), the window is brought to the chat's top once per question.
"""
from __future__ import annotations

KEEP_QUESTION_IN_VIEW = """<script>
(() => {
  // moved: the reader scrolled the chat since the last question; paged: the window was placed (or the reader
  // scrolled it) for this question. Either way, leave that scroll alone.
  let seen = 0, moved = false, paged = false;
  const mark = (e) => {
    if (e.target.closest && e.target.closest('#annex-chat')) moved = true;
    else if (e.type !== 'keydown') paged = true;
  };
  for (const kind of ['wheel', 'touchmove', 'keydown']) document.addEventListener(kind, mark, {capture: true, passive: true});
  const scroller = (row) => {  // the nearest box above the row, inside the chat, that actually scrolls
    for (let e = row.parentElement; e; e = e.parentElement) {
      const overflow = getComputedStyle(e).overflowY;
      if ((overflow === 'auto' || overflow === 'scroll') && e.scrollHeight > e.clientHeight + 1) return e;
      if (e.id === 'annex-chat') return null;
    }
    return null;
  };
  const follow = () => {
    const rows = document.querySelectorAll('#annex-chat .message-row.user-row');
    if (!rows.length) { seen = 0; return; }
    if (rows.length !== seen) { seen = rows.length; moved = false; paged = false; }
    const row = rows[rows.length - 1];
    if (!row.offsetParent) return;  // another tab is showing
    const box = scroller(row);
    const chat = document.querySelector('#annex-chat').getBoundingClientRect();
    if (box && !moved) {  // pin the newest question to the top of the chat panel while the answer streams below it
      const delta = row.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
      if (Math.abs(delta) > 2) box.scrollTop += delta;
    }
    if (paged) return;
    const r = row.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= innerHeight) { paged = true; return; }  // in view: from now on the reader's
    // Out of the window while the chat holds it (not in a layout still settling): bring the chat's top into view.
    if (r.top >= chat.top - 1 && r.bottom <= chat.bottom + 1) window.scrollBy(0, Math.min(chat.top, r.top) - 8);
  };
  // Folding the thinking block animates heights without a DOM change: look again while that settles.
  const soon = () => { follow(); for (const ms of [150, 400, 800, 1500]) setTimeout(follow, ms); };
  new MutationObserver(soon).observe(document.documentElement, {childList: true, subtree: true});
})();
</script>"""
