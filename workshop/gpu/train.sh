#!/usr/bin/env bash
# Train both models on a lent GPU machine (see workshop/gpu/README.md). Run from the repository
# root there, with .gpu/ carried (wheels in .gpu/whl, card art in .gpu/cardart):
#
#   bash workshop/gpu/train.sh start SCENES SEED HOURS WAIT   # set up, render, train in background
#   bash workshop/gpu/train.sh watch WAIT                     # later calls: wait, report, save
#
# HOURS may be "auto": train for what the first call has left after rendering (WAIT less a minute
# for the final validation and the copies), so one call does everything. TRAIN_AFTER (seconds,
# default 0) lets it train on past that call, for a `watch` call issued at once. Optional settings, from
# the environment: SYNTH_FLAGS (more `blackcat synth` flags, e.g. "--tables 0.6 --columns 0.3"),
# DETECTOR_FROM (default models/index_detector.pt), CLASSIFIER_FROM (default
# models/card_classifier.pt; models/table_classifier.pt goes on from the table's), DETECTOR_FLAGS
# and CLASSIFIER_FLAGS (more `blackcat train` flags, which override the defaults, --hours too),
# CLASSIFIER (default yes; "no" trains the detector alone), DETECTOR (default yes; "no" trains the
# classifier alone), DEVICE (default 0). SCENES2 and SYNTH2_FLAGS (optional) render a second part
# into the same set after the first, e.g. clean scenes ("--no-realism") beside the camera faults,
# so that a fine-tune keeps the distribution the kept weights learned on; SCENES3 and SYNTH3_FLAGS
# a third part after those (e.g. "--styles suit_shapes=1", which keeps held-out clubs). SUIT (default no;
# "yes" files the rendered crops by suit with workshop/suit_shapes.py and trains the suit-shape
# classifier too, from SUIT_FROM, default models/suit_classifier.pt, with SUIT_FLAGS). EXTRA_NONE
# (a tar file of images in the repository, e.g. .gpu/negatives.tar.gz: one file travels lighter than
# thousands) adds them to the classifier's training `none` crops: hard negatives cut here by
# `workshop/reader_crops.py --none-only`. EXTRA_CROPS (a tar file of class folders, `<CLASS>/<FILE>`)
# adds its crops to the classifier's training crops: e.g. crops of small true indices cut here by
# `workshop/reader_crops.py --heights 7 16`.
#
# WAIT is in seconds: keep it 30 s under the call's limit, so that the weights are saved before
# the call is stopped (a stopped call brings nothing back).
# Training runs in its own process session, so it outlives one call while the machine stays
# warm; every call ends by copying the best weights so far and the logs into $OUT.
set -uo pipefail
WORK=/tmp/blackcat
export PYTHONPATH="$WORK/site:$PWD:$PWD/workshop/gpu/shim" BLACKCAT_CACHE="$WORK/cache" PYTHONUNBUFFERED=1

STRIP='import sys
from ultralytics.utils.torch_utils import strip_optimizer
assert strip_optimizer(sys.argv[1], sys.argv[2])'

report_and_save() {
    for run in detect/detector classify/classifier classify/suit-classifier; do
        results="$WORK/runs/$run/results.csv"
        [ -f "$results" ] && { echo "== $run"; head -1 "$results"; tail -3 "$results"; }
    done
    tail -c 600 "$WORK"/train-*.log 2>/dev/null | tr '\r' '\n' | tail -8
    [ -n "${OUT:-}" ] || return 0
    for run in detect/detector classify/classifier classify/suit-classifier; do
        name=${run#*/}
        # a checkpoint taken mid-training carries its optimizer (a classifier's passes the 16 MiB a
        # file may have to come back): the copy is stripped of it, as training's end would
        [ -f "$WORK/runs/$run/weights/best.pt" ] && { python3 -c "$STRIP" "$WORK/runs/$run/weights/best.pt" \
            "$OUT/$name-best.pt" 2>/dev/null || cp "$WORK/runs/$run/weights/best.pt" "$OUT/$name-best.pt"; }
        [ -f "$WORK/runs/$run/results.csv" ] && cp "$WORK/runs/$run/results.csv" "$OUT/$name-results.csv"
    done
    cp "$WORK"/*.log "$OUT/" 2>/dev/null
    true
}

render() {  # FIRST COUNT SEED [synth flags...]: scenes FIRST.. into $WORK/data, logged
    local first=$1 count=$2 seed=$3
    shift 3
    python3 -m blackcat synth --out "$WORK/data" --scenes "$count" --seed "$seed" --start "$first" \
        --workers "$(nproc)" "$@" >>"$WORK/synth.log" 2>&1 || { tail -20 "$WORK/synth.log"; return 1; }
}

wait_for() {  # seconds; returns early once every training has ended
    local until=$((SECONDS + $1)) left
    while left=$((until - SECONDS)) && [ "$left" -gt 0 ]; do
        pgrep -f "blackcat train" >/dev/null || { echo "every training has ended"; break; }
        sleep $((left < 15 ? left : 15))
    done
}

case "${1:-}" in
start)
    scenes=$2 seed=$3 hours=$4 wait=$5
    mkdir -p "$WORK" && cd "$WORK" || exit 1
    repo=$OLDPWD
    rm -rf "$WORK/runs"  # a new start on a machine still warm: `blackcat train` keeps old runs
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$WORK/site" "$repo"/.gpu/whl/*.whl || exit 1
    python3 "$repo/workshop/gpu/cardart_bundle.py" unpack "$repo/.gpu/cardart" || exit 1
    started=$SECONDS
    : >"$WORK/synth.log"
    # shellcheck disable=SC2086  # SYNTH_FLAGS, SYNTH2_FLAGS and DETECTOR_FLAGS are word lists
    render 0 "$scenes" "$seed" ${SYNTH_FLAGS:-} || exit 1
    # shellcheck disable=SC2086
    [ "${SCENES2:-0}" -gt 0 ] && { render "$scenes" "$SCENES2" "$seed" ${SYNTH2_FLAGS:-} || exit 1; }
    # shellcheck disable=SC2086
    [ "${SCENES3:-0}" -gt 0 ] && { render $((scenes + ${SCENES2:-0})) "$SCENES3" "$seed" ${SYNTH3_FLAGS:-} || exit 1; }
    tail -3 "$WORK/synth.log"
    echo "synth: $((SECONDS - started)) s"
    if [ -n "${EXTRA_NONE:-}" ]; then
        mkdir -p "$WORK/data/classify/train/none" || exit 1
        tar -xf "$repo/$EXTRA_NONE" -C "$WORK/data/classify/train/none" || exit 1
        echo "none crops for training: $(find "$WORK/data/classify/train/none" -type f | wc -l)"
    fi
    if [ -n "${EXTRA_CROPS:-}" ]; then
        tar -xf "$repo/$EXTRA_CROPS" -C "$WORK/data/classify/train" || exit 1
        echo "training crops with the extra ones: $(find "$WORK/data/classify/train" -type f | wc -l)"
    fi
    if [ "${SUIT:-no}" = yes ]; then
        python3 "$repo/workshop/suit_shapes.py" --out "$WORK/suits" --workers "$(nproc)" "$WORK/data" || exit 1
        echo "suit crops filed: $((SECONDS - started)) s"
    fi
    if [ "$hours" = auto ]; then
        hours=$(python3 -c "print(round(max($wait + ${TRAIN_AFTER:-0} - $SECONDS - 60, 60) / 3600, 4))")
        echo "training for $hours h"
    fi
    # the defaults first, then each model's own flags, which override them (argparse keeps the last)
    common=(--hours "$hours" --device "${DEVICE:-0}")
    # shellcheck disable=SC2086
    [ "${DETECTOR:-yes}" = no ] || setsid nohup python3 -m blackcat train detector --data "$WORK/data/detect/data.yaml" --imgsz 512 \
        --batch 64 --workers 9 --lr0 0.001 --warmup-epochs 1 --name detector "${common[@]}" \
        --start "$repo/${DETECTOR_FROM:-models/index_detector.pt}" ${DETECTOR_FLAGS:-} >"$WORK/train-detector.log" 2>&1 </dev/null &
    # shellcheck disable=SC2086
    [ "${CLASSIFIER:-yes}" = no ] || setsid nohup python3 -m blackcat train classifier --data "$WORK/data/classify" \
        --batch 256 --workers 6 --lr0 0.001 --warmup-epochs 1 --name classifier "${common[@]}" \
        --start "$repo/${CLASSIFIER_FROM:-models/card_classifier.pt}" ${CLASSIFIER_FLAGS:-} >"$WORK/train-classifier.log" 2>&1 </dev/null &
    # shellcheck disable=SC2086
    [ "${SUIT:-no}" = no ] || setsid nohup python3 -m blackcat train suit-classifier --data "$WORK/suits" \
        --batch 256 --workers 12 --lr0 0.0005 --warmup-epochs 0.3 --name suit-classifier "${common[@]}" \
        --start "$repo/${SUIT_FROM:-models/suit_classifier.pt}" ${SUIT_FLAGS:-} >"$WORK/train-suit-classifier.log" 2>&1 </dev/null &
    sleep 5
    wait_for $((wait - SECONDS))
    report_and_save
    ;;
watch)
    wait_for "$2"
    report_and_save
    ;;
*)
    sed -n 2,11p "$0"
    exit 2
    ;;
esac
