"""Train a classifier's MAP as Bergamin et al.'s code does, then set both prior precisions of their
tables (Sec. 5.2, App. D): the Laplace marginal likelihood's (laplace-torch's
``optimize_prior_precision(method='marglik')``) and the fixed ``2 x weight decay`` of the code.
Each prior's posterior gets its network file: the prepared split, the trained weights and the prior
variance (1 / precision)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.data.prepared import load_prepared, save_prepared
from geobayes.io import save_json
from geobayes.laplace.classification_evidence import optimise_prior_precision
from geobayes.optimize.train_classifier import ClassifierTraining, train_classifier
from geobayes.pipeline.device import use_device
from geobayes.pipeline.network_posteriors import classifier_network_of
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    options, model_name = smk.params.model, smk.wildcards.model
    name = f"{smk.wildcards.dataset}_seed{smk.wildcards.seed}-{model_name}"
    arrays = load_prepared(smk.input.data, "classification_split")
    network = classifier_network_of(model_name, options, arrays)
    settings = {k: v for k, v in options["training"][model_name].items() if k != "polish"}
    training = ClassifierTraining(**settings)
    # The training seed: the config's, folded with the network's name (data set, seed, network).
    key = derive_key(smk.params.seed, "train", name)
    theta0 = network.initial_parameters(key)
    clock = Stopwatch()
    X, y = arrays["X_train"], np.asarray(arrays["y_train"]).astype(np.int64)
    with clock.time("train"):
        trained = train_classifier(network, X, y, theta0, training, derive_key(smk.params.seed, "batches", name))
    print(f"{name}: trained {trained.epochs} epochs, final loss {trained.loss:.6g}", file=log)
    marglik = options["marginal_likelihood"]
    with clock.time("marginal_likelihood"):
        fit = optimise_prior_precision(network, trained.theta, X, y,
                                       init_prior_precision=float(marglik["init_prior_precision"]),
                                       learning_rate=float(marglik["learning_rate"]), steps=int(marglik["steps"]),
                                       batch_size=256)
    precisions = {"optimised": float(fit.prior_precision), "fixed": 2.0 * float(training.weight_decay)}
    print(f"prior precision: optimised {precisions['optimised']:.6g} (log evidence {fit.log_marginal_likelihood:.6g}), "
          f"fixed 2 x weight decay = {precisions['fixed']:.6g}", file=log)
    posterior_arrays = {**arrays, "X": X, "y": y.astype(np.float64), "theta_trained": np.asarray(trained.theta),
                        "loss_trace": np.asarray(trained.loss_trace)}
    for prior, precision in precisions.items():
        save_prepared(smk.output[prior], "trained_classifier",
                      {**posterior_arrays, "prior_variance": np.asarray(1.0 / precision)},
                      {"posterior": f"{smk.wildcards.dataset}_{prior}_seed{smk.wildcards.seed}-{model_name}"})
    save_json(smk.output.json, sidecar("classifier_training", {"model": options, "seed": smk.params.seed}, device,
                                       clock.timings, network=name, final_loss=trained.loss,
                                       prior_precision=precisions, marginal_likelihood=fit.summary()))
