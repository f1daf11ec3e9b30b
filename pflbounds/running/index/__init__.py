"""The index of each paper package: what ``list``, ``show`` and a cached ``validate`` read
instead of importing the paper's modules.

A paper's index has two parts, each one JSON file in the task cache folder
(``ROOT/index/``, :mod:`pflbounds.running.index.store`):

* ``results``: the paper's record (title, citation, digest), one listing row per result, and
  the functions that implement each result's method, with where they are defined and whether
  they exist (:func:`pflbounds.running.index.build.results_part`);
* ``checks``: every check the paper's check modules register, as records from which
  :mod:`pflbounds.checking.indexed` rebuilds the check without its code
  (:func:`pflbounds.running.index.build.checks_part`).

Each part is keyed (:mod:`pflbounds.running.index.keys`) by a hash of every source file of the paper
package and of pflbounds itself, with the pflbounds version, the Python version and the
installed dependencies: any edit makes a new key, and the part is built again from the
modules (imported then, as a command without an index would) and stored under the new key.
:class:`pflbounds.running.index.view.PaperIndex` is what the commands ask.

Nothing is written outside a task cache folder that exists (or that ``--cache-dir`` or
``PFLBOUNDS_CACHE_DIR`` names): without one, the commands import the papers as before.
``PFLBOUNDS_NO_INDEX=1`` turns the index off.
"""
