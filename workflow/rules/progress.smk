# An estimate of the time left under Snakemake's "N of M steps (x%) done" line
# (geobayes.pipeline.time_left: the run's own pace, each job weighted by its rule's typical cost
# in workflow/resources/rule_seconds.tsv). Snakemake 9 logs that line from
# `JobScheduler.progress` after every finished job; it is wrapped here to log one more line
# ("about 1 h 05 min left at this run's pace"). Nothing is printed in a dry run, before the finished
# jobs weigh 2 % of the run, after the last job, or where Snakemake's internals differ from what
# this expects (then the run goes on as if this file were not there). The O(jobs) pass per finished
# job costs seconds over a whole paper-scale run (5,982 jobs).

import os
import time as _time

from snakemake.logging import logger as _logger
from snakemake.scheduling import job_scheduler as _progress_scheduler

from geobayes.pipeline.time_left import format_time_left, load_rule_seconds, time_left

_RULE_SECONDS = load_rule_seconds(os.path.join(workflow.basedir, "workflow", "resources", "rule_seconds.tsv"))


def _time_left_line(scheduler):
    """``about ... left at this run's pace``, or None where no estimate can be had."""
    dag = scheduler.workflow.dag
    started = getattr(scheduler, "_geobayes_started", None)
    if scheduler.workflow.dryrun or started is None:
        return None
    # progress() runs while the jobs that prompted it are being finished, before the DAG marks them
    finishing = set(getattr(scheduler, "_tofinish", ()))
    done, remaining = [], []
    for job in dag._needrun:
        (done if dag.finished(job) or job in finishing else remaining).append(job.rule.name)
    seconds = time_left(_time.monotonic() - started, done, remaining, _RULE_SECONDS)
    return None if seconds is None or not remaining else f"{format_time_left(seconds)} at this run's pace"


def _wrap_scheduler(original_init, original_progress):
    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._geobayes_started = _time.monotonic()

    def progress(self):
        original_progress(self)
        try:
            line = _time_left_line(self)
        except Exception:  # noqa: BLE001  (an estimate must never stop a run)
            line = None
        if line is not None:
            _logger.info(line)

    return init, progress


if all(hasattr(_progress_scheduler.JobScheduler, name) for name in ("__init__", "progress")):
    _progress_scheduler.JobScheduler.__init__, _progress_scheduler.JobScheduler.progress = _wrap_scheduler(
        _progress_scheduler.JobScheduler.__init__, _progress_scheduler.JobScheduler.progress)
