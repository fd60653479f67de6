"""A hint never tells a student to do what their answer already does.

A case's ``hint=`` is written for the common mistake ("use tf.nn.scale_regularization_loss"). A
submission can fail the same case for another reason while already doing what the hint says
(it scales the regularisation, and averages each replica's loss over its own slice): then the
hint would send the student after something that is right. So a failed case's hint is dropped
when every TensorFlow function it names (``tf.a.b``) is already called in that question's
answer cells; the case's diagnosis, which measures the answer, still says what is wrong.
"""

import re

from tfdist_instructor.grading import ownwork

NAMED = re.compile(r"\btf(?:\.\w+)+")


def prune(tests, cells, owners):
    """Blank the hint of every failed case in ``tests`` whose advice its answer cells already follow.

    ``cells``: the submission's cells; ``owners``: ``{cell id: question}`` of the handed-out
    notebook's answer cells (see :func:`ownwork.answer_cells`)."""
    for test in tests:
        named = {m.rsplit(".", 1)[-1] for m in NAMED.findall(test.get("hint") or "")}
        if test["passed"] or not named:
            continue
        code = "\n".join(c.source for c in ownwork.answer_cells(cells, owners, test["question"]))
        code = "\n".join(ln.split("#", 1)[0] for ln in code.splitlines())  # a comment is not a call
        if all(re.search(rf"\b{re.escape(name)}\s*\(", code) for name in named):
            test["hint"] = ""
    return tests
