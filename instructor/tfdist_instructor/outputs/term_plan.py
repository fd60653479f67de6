"""The term plan: which session teaches which lessons, with which deck and graded exercise, and
how long each part took when it was measured.

Lesson minutes come from the lessons' stored run (reading at the stated pace plus the compute
that run measured, as ``lesson_time.estimate`` counts them); exercise minutes from the compute
seconds of the normal-mode run of each exercise's solution that ``make outputs`` writes to
docs/measured-times.json. Nothing is typed in: where no run is stored, the table says so.
``scripts/lesson_times.py`` prints these tables and writes them into docs/instructor-guide.md.
"""

import json
import math
from pathlib import Path

import nbformat

from tfdist_instructor.outputs import TIMES_FILE, lesson_time

# (title, lessons, decks, exercises): names are file stems in notebooks/, slides/, exercises/.
SESSIONS = (
    ("Data parallelism and your runtime", ["00_start_here"], ["01_data_parallelism"], []),
    ("One machine: default, OneDevice, Mirrored with fit",
     ["01_default_and_one_device", "02_mirrored_fit"], ["02_single_machine"], ["01_global_batch"]),
    ("Custom training loops", ["03_mirrored_custom_loop"], ["03_custom_loops"], ["02_custom_loop"]),
    ("Performance: when more devices are slower", ["04_performance"], ["04_performance"], []),
    ("Data parallelism by hand", ["05_by_hand"], ["05_by_hand"], ["05_ring_allreduce"]),
    ("TPUs and several workers", ["06_tpu", "07_multi_worker"], ["06_beyond_one_machine"],
     ["04_multi_worker"]),
    ("Parameter servers, and the SVHN capstone", ["08_parameter_server"],
     ["06_beyond_one_machine", "07_svhn_capstone"], ["03_svhn_capstone"]),
    ("After tf.distribute: keras.distribution on JAX", ["09_keras_distribution"],
     ["08_keras_distribution"], []),
)
NOT_STORED = "no measurement stored"


def lesson_minutes(root, name):
    """(reading, computing, total, 'machine, date') of a lesson's stored run, or None."""
    nb = nbformat.read(Path(root) / "notebooks" / f"{name}.ipynb", as_version=4)
    stored = nb.metadata.get("tfdist_edu", {}).get("stored_outputs")
    if not stored:
        return None
    return (*lesson_time.estimate(nb, stored["compute_seconds"]), f"{stored['machine']}, {stored['date']}")


def exercise_minutes(root, name, times):
    """(reading, computing) minutes of an exercise: its notebook's text and its solution's run."""
    seconds = (times or {}).get("compute_seconds", {}).get(name)
    if seconds is None:
        return None
    nb = nbformat.read(Path(root) / "exercises" / name / f"{name}.ipynb", as_version=4)
    return math.ceil(lesson_time.reading_minutes(nb)), math.ceil(seconds / 60)


def lesson_table(root, names):
    rows = ["| lesson | read (min) | compute (min) | total (min) | measured on |",
            "| --- | --- | --- | --- | --- |"]
    for name in names:
        m = lesson_minutes(root, name)
        rows.append(f"| {name} | {m[0]} | {m[1]} | {m[2]} | {m[3]} |" if m else
                    f"| {name} | - | - | - | {NOT_STORED}: `make test`, then `make outputs` |")
    return rows


def exercise_table(root, names, times):
    where = f"{times['machine']}, {times['date']}, {times['mode']} mode" if times else None
    rows = ["| exercise | read (min) | solution's compute (min) | measured on |", "| --- | --- | --- | --- |"]
    for name in names:
        m = exercise_minutes(root, name, times)
        rows.append(f"| {name} | {m[0]} | {m[1]} | {where} |" if m else
                    f"| {name} | - | - | {NOT_STORED} in docs/{TIMES_FILE}: `make test`, then `make outputs` |")
    return rows


def session_table(root, sessions, times):
    rows = ["| session | lessons | deck | exercise | lessons (min) | exercise read + compute (min) |",
            "| --- | --- | --- | --- | --- | --- |"]
    for number, (title, lessons, decks, exercises) in enumerate(sessions, 1):
        measured = [lesson_minutes(root, name) for name in lessons]
        done = [exercise_minutes(root, name, times) for name in exercises]
        lesson_cell = str(sum(m[2] for m in measured)) if all(measured) else NOT_STORED
        exercise_cell = ("-" if not exercises else NOT_STORED if not all(done)
                         else str(sum(r + c for r, c in done)))
        rows.append(f"| {number}. {title} | {', '.join(lessons)} | {', '.join(f'slides/{d}' for d in decks)} "
                    f"| {', '.join(exercises) or 'none'} | {lesson_cell} | {exercise_cell} |")
    return rows


def tables(root, sessions=SESSIONS):
    """The term plan, then the lessons' and exercises' own times, as Markdown."""
    path = Path(root) / "docs" / TIMES_FILE  # None until `make outputs` stores a run
    times = json.loads(path.read_text()) if path.exists() else None
    lessons = [name for session in sessions for name in session[1]]
    exercises = sorted({name for session in sessions for name in session[3]})
    pace = (f"Reading at {lesson_time.WORDS_PER_MINUTE} words and {lesson_time.CODE_LINES_PER_MINUTE} "
            "code lines a minute; computing as measured in one normal-mode run.")
    return "\n".join([pace, "", *session_table(root, sessions, times), "", *lesson_table(root, lessons),
                      "", *exercise_table(root, exercises, times)]) + "\n"


START, END = "<!-- term-plan: start", "<!-- term-plan: end -->"


def replace_block(text, block):
    """``text`` with what lies between the term-plan markers replaced by ``block``."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the guide has no '{START} ... -->' line followed by a '{END}' line "
                         "to write the term plan between")
    opening = text.index("\n", start) + 1
    return text[:opening] + "\n" + block + "\n" + text[end:]
