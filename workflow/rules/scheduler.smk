# One pending re-selection timer in Snakemake's scheduler, not one more per scheduling pass.
#
# Snakemake 9 (snakemake/scheduling/job_scheduler.py, `JobScheduler._schedule_reevalutation`)
# starts a `threading.Timer` at the end of every scheduling pass while a job-rate limit is set
# (always: `--max-jobs-per-timespan` defaults to 100/1s). A pass runs at every finished job and
# at every timer, and each starts another timer, so after N finished jobs N timer chains fire
# every timespan. Every pass stats the inputs of every ready job (`update_input_sizes`), even
# when no core is free. Measured on the quick DAG (944 jobs, 2 cores): after 600 finished jobs
# the Snakemake process had used 41 minutes of CPU, 40 % of all CPU spent so far, 70 % of it in job
# selection (py-spy). The same stat storm is upstream issue snakemake/snakemake#3955 (see also
# #4240). A re-selection only has to happen within one timespan of the last pass (the limiter
# frees slots as jobs age out of the window; finished jobs trigger their own pass), so one
# pending timer is enough: starting a timer while another is pending does nothing. The timer
# is a daemon thread, so a finished run exits at once. Where Snakemake's internals differ (the
# method is gone), nothing is patched.

import threading as _threading

from snakemake.scheduling import job_scheduler as _job_scheduler


def _schedule_one_reevaluation(self, delay):
    """Release the scheduler once after ``delay`` seconds unless a release is already pending."""
    pending = getattr(self, "_geobayes_reevaluation", None)
    if pending is not None and pending.is_alive():
        return
    timer = _threading.Timer(delay, self._open_jobs.release)
    timer.daemon = True
    self._geobayes_reevaluation = timer
    timer.start()


if hasattr(_job_scheduler.JobScheduler, "_schedule_reevalutation"):
    _job_scheduler.JobScheduler._schedule_reevalutation = _schedule_one_reevaluation
