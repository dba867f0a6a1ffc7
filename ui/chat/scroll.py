"""Where the chat's view goes when a question is asked: to the question, not to the end of the answer.

Gradio's chatbot follows the stream to its last line, so a long 相关附件内容 block pulls the question and the start
of the answer out of view (and the page with it). The chat is built with autoscroll=False and this script, run
once from the page's head, scrolls the chat's own panel so that each new question sits at its top.
"""
from __future__ import annotations

KEEP_QUESTION_IN_VIEW = """<script>
(() => {
  let seen = 0, moved = false;  // moved: the reader scrolled the chat since the last question; leave it alone
  const mark = (e) => { if (e.target.closest && e.target.closest('#annex-chat')) moved = true; };
  for (const kind of ['wheel', 'touchmove', 'keydown']) document.addEventListener(kind, mark, {capture: true, passive: true});
  const follow = () => {
    const rows = document.querySelectorAll('#annex-chat .message-row.user-row');
    const wrap = document.querySelector('#annex-chat .bubble-wrap');
    if (!wrap || !rows.length) { seen = 0; return; }
    if (rows.length !== seen) { seen = rows.length; moved = false; }
    if (moved) return;
    // Pin the newest question to the top of the chat panel while the answer streams in below it.
    const delta = rows[rows.length - 1].getBoundingClientRect().top - wrap.getBoundingClientRect().top - 8;
    if (Math.abs(delta) > 2) wrap.scrollTop += delta;
  };
  // Folding the thinking block animates heights without a DOM change: look again while that settles.
  const soon = () => { follow(); for (const ms of [150, 400, 800, 1500]) setTimeout(follow, ms); };
  new MutationObserver(soon).observe(document.documentElement, {childList: true, subtree: true});
})();
</script>"""
