"""Registry and typed settings: every bad setting is a one-line ValueError naming it."""

import pytest

from geobayes.settings import SettingsError
from geobayes.sgmcmc import (PRECONDITIONERS, MongePreconditioner, RMSpropPreconditioner, RootMethod,
                             ShampooPreconditioner, WenzelPreconditioner, build_preconditioner)


def test_registry_builds_nn_defaults_and_funnel_settings():
    assert set(PRECONDITIONERS) == {"identity", "rmsprop", "wenzel", "monge", "shampoo"}
    assert build_preconditioner("rmsprop") == RMSpropPreconditioner(lam=0.99, eps=1e-8)
    assert build_preconditioner("monge", {}).lam == 0.9
    shampoo = build_preconditioner("shampoo", {"lam": 0.9995, "eps": "1e-6", "update_interval": 1,
                                               "first_preconditioner_step": 1, "root_method": "eigh",
                                               "precondition_vectors": True})
    assert shampoo.root_method is RootMethod.EIGH and shampoo.eps == 1e-6 and shampoo.update_interval == 1
    assert ShampooPreconditioner().block_size == 128 and ShampooPreconditioner().first_preconditioner_step == 100
    assert build_preconditioner("monge", {"alpha2": 0.1, "lam": 0.7, "fallback_norm": 1000}).fallback_norm == 1000


@pytest.mark.parametrize("name, mapping, needle", [
    ("monge", {"alpha2": -0.5}, "alpha2"),
    ("monge", {"lam": 1.0}, "lam"),
    ("rmsprop", {"lam": -0.1}, "lam"),
    ("wenzel", {"lam": 1.5}, "lam"),
    ("rmsprop", {"eps": -1e-8}, "eps"),
    ("shampoo", {"block_size": 0}, "block_size"),
    ("shampoo", {"update_interval": 0}, "update_interval"),
    ("shampoo", {"block_size": 127.5}, "block_size"),
    ("shampoo", {"root_method": "cholesky"}, "root_method"),
    ("shampoo", {"precondition_vector": True}, "precondition_vector"),
    ("monge", {"alpah2": 1.0}, "alpah2"),
    ("monge", {"alpha2": True}, "alpha2"),
    ("monge", {"fallback_norm": 0.0}, "fallback_norm"),
    ("nope", {}, "nope"),
])
def test_bad_settings_are_one_line_errors_naming_the_setting(name, mapping, needle):
    with pytest.raises(SettingsError) as error:
        build_preconditioner(name, mapping)
    message = str(error.value)
    assert needle in message and "\n" not in message


@pytest.mark.parametrize("make, needle", [
    (lambda: MongePreconditioner(alpha2=-1.0), "alpha2"),
    (lambda: WenzelPreconditioner(lam=1.0), "lam"),
    (lambda: ShampooPreconditioner(block_size=0), "block_size"),
    (lambda: ShampooPreconditioner(root_method="qr"), "root_method"),
])
def test_direct_construction_validates(make, needle):
    with pytest.raises(ValueError, match=needle):
        make()
