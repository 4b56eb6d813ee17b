# Helpers of workflow/rules/liu2018_blr.smk (functions and config slices only, no rules).

LIU2018_BLR = EXPERIMENTS["liu2018_blr"]

#: Liu & Zhu's (2018) Fig. 1 data sets -> the registered file each is read from; any other `data` of a
#: panel is a data set of the mirror's logreg/ (an offline stand-in).
LIU2018_BLR_SOURCES = {"splice19": "splice/benchmarks.mat", "covertype": "covertype/covertype.mat"}


def liu2018_blr_raw(data):
    """The registered raw file a Fig. 1 data set is read from."""
    return LIU2018_BLR_SOURCES.get(data, f"logreg/{data}.npy")


def liu2018_blr_panel_data(panel):
    """(data set, stand-in?) of one panel: its `data`, or its `stand_in` where the configured mirror lacks the
    data's file (Splice and Covertype are pinned but not mirrored: a run reading a mirror uses the stand-in and
    says so in the figure and the report; a run without a mirror downloads them)."""
    options = LIU2018_BLR["panels"][panel]
    if unavailable_offline([liu2018_blr_raw(options["data"])]):
        return options["stand_in"], True
    return options["data"], False


def liu2018_blr_split(panel, run):
    """The prepared split a panel's run reads: Splice's fixed realisation (split 0), else the run's own
    80/20 split (the caption), or `split_seed` for every run (the code's random_state=42)."""
    data, _ = liu2018_blr_panel_data(panel)
    fixed = LIU2018_BLR["panels"][panel].get("split_seed")
    split = 0 if data == "splice19" else (fixed if fixed is not None else run)
    return f"data/prepared/liu2018_blr/{data}_split{split}.npz"


def liu2018_blr_run_files(suffix):
    """Every run record: panel x method x run."""
    return [f"results/liu2018_blr/{panel}/{method}/run{run}.{suffix}"
            for panel, options in LIU2018_BLR["panels"].items() for method in options["methods"]
            for run in range(options["runs"])]


SUMMARY_RECORDS["liu2018_blr"] = lambda: liu2018_blr_run_files("json")


def liu2018_blr_targets():
    """Fig. 1 and its table (rule all)."""
    return ["figures/liu2018_fig1.pdf", "tables/liu2018_blr.tex"]
