# One CPU per job thread (config `pin_cpus`; src/geobayes/pipeline/cpu_slots.py): every job runs on
# as many CPUs as its rule's threads, each held by one job, so that XLA's thread pool is the job's
# threads and not every CPU of the machine. The jobs inherit this process's environment; a SLURM job
# gets it with the rest of the environment and pins itself on its node.

from geobayes.pipeline.cpu_slots import PIN_VARIABLE

os.environ[PIN_VARIABLE] = "1" if config["pin_cpus"] else "0"
