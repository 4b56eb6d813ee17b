"""Tests of geobayes.report.wg_timing_table: seconds per sample and WG ratios (rule time_wg records)."""

import copy
import math

import pandas as pd
import pytest

from geobayes.report.wg_timing_table import WG_TIMING_COLUMNS, wg_timing_frame, wg_timing_table_latex


def record(posterior="hartmann-rosenbrock", with_rla_f=True, wg=0.002, ela=0.0005, rla_f=0.04, nuts=0.01):
    methods = {"wg": {"fit_s": 0.3, "sample_s": wg * 20, "per_sample_s": wg, "compile_s": 1.0, "n_failed": 2},
               "ela": {"fit_s": 0.1, "sample_s": ela * 20, "per_sample_s": ela, "compile_s": 0.5, "n_failed": 0}}
    ratios = {"wg/ela": wg / ela, "wg/nuts": wg / nuts}
    if with_rla_f:
        methods["rla_f"] = {"fit_s": 0.4, "sample_s": rla_f * 20, "per_sample_s": rla_f, "compile_s": 3.0,
                            "n_failed": 1}
        ratios["wg/rla_f"] = wg / rla_f
    return {"posterior": posterior, "dim": 2, "samples": 20, "methods": methods,
            "nuts": {"seconds": nuts * 20, "per_sample_s": nuts, "warmup": 100, "samples": 20, "divergences": 4},
            "ratios": ratios}


def test_ratios_and_counts():
    frame = wg_timing_frame([record(), record("sharp2022-growth", with_rla_f=False, wg=0.02)])
    assert list(frame.columns) == list(WG_TIMING_COLUMNS)
    assert list(frame["posterior"]) == ["hartmann-rosenbrock", "sharp2022-growth"]
    first, second = frame.iloc[0], frame.iloc[1]
    assert first.ratio_wg_ela == pytest.approx(4.0)
    assert first.ratio_wg_rla_f == pytest.approx(0.05)
    assert first.ratio_wg_nuts == pytest.approx(0.2)
    assert (first.wg_failed, first.ela_failed, first.rla_f_failed, first.nuts_divergences) == (2, 0, 1, 4)
    assert second.ratio_wg_ela == pytest.approx(40.0) and second.ratio_wg_nuts == pytest.approx(2.0)
    assert math.isnan(second.ratio_wg_rla_f) and math.isnan(second.rla_f_per_sample_s)
    assert pd.isna(second.rla_f_failed)


def test_ratio_recomputed_without_stored_ratios():
    rec = record()
    del rec["ratios"]
    assert wg_timing_frame([rec]).iloc[0].ratio_wg_nuts == pytest.approx(0.2)


def test_latex_and_csv_round_trip(tmp_path):
    frame = wg_timing_frame([record(), record("n5-synthbern", with_rla_f=False)])
    tex = wg_timing_table_latex(frame)
    assert "\\toprule" in tex and "hartmann-rosenbrock & 2 & 20" in tex
    assert "& 4 & 0.05 & 0.2 & 2 & 0 & 1 & 4 \\\\" in tex
    assert "& 4 & -- & 0.2 & 2 & 0 & -- & 4 \\\\" in tex
    frame.to_csv(tmp_path / "wg_timing.csv", index=False)
    back = pd.read_csv(tmp_path / "wg_timing.csv")
    assert back["ratio_wg_ela"].tolist() == pytest.approx(frame["ratio_wg_ela"].tolist())


def test_bad_records_raise():
    wrong = record()
    wrong["ratios"]["wg/ela"] = 3.0
    with pytest.raises(ValueError, match=r"hartmann-rosenbrock\.json.*wg/ela"):
        wg_timing_frame([wrong])
    missing = copy.deepcopy(record())
    del missing["nuts"]
    with pytest.raises(ValueError, match="lacks keys \\['nuts'\\]"):
        wg_timing_frame([missing])
    negative = record(ela=-1.0)
    with pytest.raises(ValueError, match="methods.ela.per_sample_s"):
        wg_timing_frame([negative])
    no_wg = record()
    del no_wg["methods"]["wg"]
    with pytest.raises(ValueError, match="'wg'"):
        wg_timing_frame([no_wg])
    unknown = record()
    unknown["methods"]["rla_b"] = unknown["methods"]["ela"]
    with pytest.raises(ValueError, match="rla_b"):
        wg_timing_frame([unknown])
    bad_count = record()
    bad_count["methods"]["wg"]["n_failed"] = 1.5
    with pytest.raises(ValueError, match="n_failed"):
        wg_timing_frame([bad_count])
    with pytest.raises(ValueError, match="repeat"):
        wg_timing_frame([record(), record()])
    with pytest.raises(ValueError, match="no WG timing records"):
        wg_timing_frame([])
