"""A class's downloads as each platform names them, built from the platforms' documented formats
(cited beside each pattern in tfdist_instructor/term/platforms/), with the roster that goes with it.
Used by the term's tests (tests/instructor/term/) and benchmarks/term_walkthrough.py.

``make_class(folder, notebook_for)`` writes one submission per platform naming scheme, plus an
unmatched file, a duplicated student, a late one and a PDF uploaded beside a notebook; ``notebook_for(student)`` gives each file's
notebook (an nbformat notebook).
"""

import datetime
import os

import nbformat

ROSTER = """\
id,name,email,canvas_id,moodle_id,gradescope_id
s1001,Jane Doe,jane.doe@uni.example,12345,,
s1002,Bob Smith,bob.smith@uni.example,23456,,
s1003,Ana María López,ana.lopez@uni.example,,501,
s1004,Wei Chen,wei.chen@uni.example,,,
s1005,Kofi Mensah,kofi.mensah@uni.example,,,9001
s1006,Lena Fischer,lena.fischer@uni.example,,,
s1007,Omar Haddad,omar.haddad@uni.example,,,
s1008,Sara Novak,sara.novak@uni.example,34567,,
"""
EXERCISE = "05_ring_allreduce"
# Gradescope's export metadata, as the export writes it (a Ruby-symbol YAML).
GRADESCOPE_YML = """\
submission_88001:
  :submitters:
  - :name: Kofi Mensah
    :sid: '9001'
    :email: kofi.mensah@uni.example
  :created_at: 2026-03-03 10:15:00.000000000 +00:00
"""
MOODLE_TIME = datetime.datetime(2026, 3, 2, 20, 0, tzinfo=datetime.timezone.utc)
FILES = {  # file (as downloaded) -> (student the file is for, what the test expects)
    f"doejane_12345_67890_{EXERCISE}.ipynb": ("s1001", "canvas"),
    f"doejane_12345_67899_{EXERCISE}.pdf": ("s1001", "canvas, a PDF beside the notebook"),
    f"smithbob_LATE_23456_67891_{EXERCISE}.ipynb": ("s1002", "canvas, late"),
    f"Ana María López_501_assignsubmission_file_{EXERCISE}.ipynb": ("s1003", "moodle"),
    f"Wei Chen_502_assignsubmission_file_/{EXERCISE}.ipynb": ("s1004", "moodle folders, by name"),
    f"submission_88001/{EXERCISE}.ipynb": ("s1005", "gradescope"),
    f"{EXERCISE}.ipynb": ("s1006", "colab, id in the first cell"),
    f"Copy of {EXERCISE} (omar.haddad@uni.example).ipynb": ("s1007", "colab, email in the name"),
    f"{EXERCISE} (1).ipynb": (None, "colab, unmatched"),
    f"novaksara_34567_67895_{EXERCISE}.ipynb": ("s1008", "canvas, duplicated"),
    f"{EXERCISE} (2).ipynb": ("s1008", "colab, duplicated (id in metadata)"),
}


def make_class(folder, notebook_for):
    """Write the downloads into ``folder`` and ``folder``/../roster.csv; return the roster's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "submission_metadata.yml").write_text(GRADESCOPE_YML)
    for name, (student, how) in FILES.items():
        nb = notebook_for(student)
        if how.startswith("colab, id in the first cell"):
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(f"Student id: {student}"))
        elif how.endswith("(id in metadata)"):
            nb.metadata["student_id"] = student
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".pdf":
            path.write_bytes(b"%PDF-1.4\n% the student's notebook, printed\n")
        else:
            nbformat.write(nb, path)
        # as unzipped from the download: the time the platform stored (Moodle and Colab have no other)
        os.utime(path, (MOODLE_TIME.timestamp(), MOODLE_TIME.timestamp()))
    roster = folder.parent / "roster.csv"
    roster.write_text(ROSTER)
    return roster
