"""Snakemake script: the SAM experiment's 20News-different documents (Liu & Zhu 2018, Sec. 5.2), all of them
or a seeded subset at the small scales, the raw files checked against the registry first."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.news20_tfidf import LIU2018_SAM, prepare_sam_documents
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    documents = smk.params.documents
    arrays = prepare_sam_documents(verified(smk.input.train), verified(smk.input.test), n_train=documents["train"],
                                   n_test=documents["test"], seed=int(smk.params.seed))
    save_prepared(smk.output[0], LIU2018_SAM.name, arrays, {"source": "20news_diff", "documents": documents})
    print({name: value.shape for name, value in arrays.items()}, file=log)
