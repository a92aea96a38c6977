"""Training settings, the narrowed model definition, and a tiny real training run, offline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from blackcat.vision.parallel import usable_cores
from blackcat.workshop.training import (
    ClassifierSettings,
    DetectorSettings,
    _on_every_core,
    _scaled_model_yaml,
    _train_arguments,
)


def test_the_detector_definition_takes_our_width_and_depth(tmp_path: Path) -> None:
    path = _scaled_model_yaml("yolo11n.yaml", depth=0.5, width=0.125, out_dir=tmp_path)
    definition = yaml.safe_load(path.read_text())
    assert list(definition["scales"].values()) == [[0.5, 0.125, 1024]]


def test_the_narrow_detector_is_smaller_than_yolo11n(tmp_path: Path) -> None:
    from ultralytics import YOLO

    narrow = YOLO(str(_scaled_model_yaml("yolo11n.yaml", 0.5, 0.125, tmp_path)), task="detect")
    standard = YOLO("yolo11n.yaml", task="detect")
    count = lambda model: sum(p.numel() for p in model.model.parameters())  # noqa: E731
    assert count(narrow) < count(standard) / 2


def test_no_setting_mirrors_glyphs_or_needs_the_internet() -> None:
    for settings in (DetectorSettings(), ClassifierSettings()):
        arguments = _train_arguments(settings)
        assert arguments["fliplr"] == 0.0
        assert arguments["plots"] is False  # plots download a font
        assert arguments["device"] == "cpu"
        assert "time" not in arguments


def test_hours_replace_epochs_with_a_time_budget() -> None:
    assert _train_arguments(DetectorSettings(hours=1.5))["time"] == 1.5


TINY_RUN = ("--epochs", "1", "--imgsz", "32", "--batch", "4", "--name", "tiny")


def test_a_tiny_classifier_trains_offline(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        for code, colour in (("QS", 40), ("10H", 200)):
            folder = tmp_path / "data" / split / code
            folder.mkdir(parents=True)
            for n in range(4):
                crop = np.clip(rng.normal(colour, 20, (32, 32, 3)), 0, 255).astype(np.uint8)
                cv2.imwrite(str(folder / f"{n}.jpg"), crop)
    completed = _train(tmp_path, "classifier", "--data", "data", *TINY_RUN)
    assert completed.returncode == 0, completed.stderr[-2000:]
    best = tmp_path / "runs" / "classify" / "tiny" / "weights" / "best.pt"
    assert best.is_file()
    assert f"training on the CPU with {usable_cores()} threads" in completed.stdout

    # a fine-tune that follows the first run's probabilities as well as the labels
    start = ("--start", str(best), "--distil-from", str(best), "--distil-weight", "0.5")
    completed = _train(tmp_path, "classifier", "--data", "data", *TINY_RUN[:-1], "taught", *start)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert (tmp_path / "runs" / "classify" / "taught" / "weights" / "best.pt").is_file()
    assert f"distilled from {best}: 0.5 of the loss" in completed.stdout

    # a finished run's weights keep no training state: Ultralytics would start a training of
    # its own defaults instead, on a dataset it tries to download
    completed = _train(tmp_path, "classifier", "--resume", str(best))
    assert completed.returncode == 2
    assert completed.stderr.endswith(
        f"--resume {best}: these weights keep no training state (a finished run's, or weights "
        "stripped for keeping): train on from them with --start instead\n"
    )
    assert sorted(path.name for path in (tmp_path / "runs" / "classify").iterdir()) == [
        "taught",
        "tiny",
    ]


def test_a_cpu_run_computes_on_every_usable_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    class CpuTrainer:
        device = torch.device("cpu")

    kept = torch.get_num_threads()
    monkeypatch.setattr("blackcat.workshop.training.usable_cores", lambda: 3)
    try:
        torch.set_num_threads(1)
        _on_every_core(CpuTrainer())
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(kept)


def _train(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blackcat", "train", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        env={"YOLO_OFFLINE": "1", "PATH": "/usr/bin:/bin", "HOME": str(folder)},
    )


def test_a_distilled_loss_mixes_the_labels_with_the_teachers_probabilities() -> None:
    import torch
    import torch.nn.functional as F

    from blackcat.workshop.training import DistilledLoss

    logits = torch.tensor([[2.0, 0.0, -1.0], [0.0, 1.0, 0.0]], requires_grad=True)
    taught = torch.tensor([[0.0, 3.0, 0.0], [0.0, 1.0, 0.0]])
    batch = {"img": torch.zeros(2, 3, 8, 8), "cls": torch.tensor([0, 1])}
    teacher = lambda images: (taught.softmax(1), taught)  # noqa: E731  (eval mode: probabilities, logits)

    labels_only, _ = DistilledLoss(teacher, 0.0)(logits, batch)
    assert float(labels_only.detach()) == pytest.approx(
        F.cross_entropy(logits, batch["cls"]).item()
    )
    assert DistilledLoss(lambda images: logits.detach(), 1.0)(logits, batch)[0].item() == 0.0

    # all of it the teacher's: the first crop's step goes toward the teacher's class 1
    loss, items = DistilledLoss(teacher, 1.0)(logits, batch)
    loss.backward()
    assert logits.grad is not None and logits.grad[0, 1] < 0 < logits.grad[0, 0]
    assert set(items) == {"loss"}  # as Ultralytics' own loss names it
