"""Camera faults of real pictures: each does what it says, none touches a labelled index, and
a scene without faults is the picture it always was."""

from __future__ import annotations

import numpy as np

from blackcat.workshop.synth.layout import Camera
from blackcat.workshop.synth.realism import (
    NEUTRAL,
    Realism,
    apply_light_faults,
    apply_sensor_faults,
    draw_fingers,
    random_realism,
    realism_rng,
)
from blackcat.workshop.synth.scene import realism_parameters, squeezed
from blackcat.workshop.synth.styles import DARK_INKS, dark_faced


def _grey(h: int = 60, w: int = 80) -> np.ndarray:
    return np.full((h, w, 3), 0.5, np.float32)


def test_no_faults_leave_the_picture_as_it_was() -> None:
    picture = _grey()
    assert apply_light_faults(picture, NEUTRAL) is picture
    photo = (picture * 255).astype(np.uint8)
    assert np.array_equal(apply_sensor_faults(photo, NEUTRAL, np.random.default_rng(0)), photo)


def test_a_cast_and_an_exposure_scale_each_channel() -> None:
    out = apply_light_faults(_grey(), Realism(cast=(0.5, 1.0, 0.8), exposure=0.5))
    assert np.allclose(out[0, 0], [0.125, 0.25, 0.2])


def test_a_vignette_darkens_the_corners_not_the_middle() -> None:
    out = apply_light_faults(_grey(), Realism(vignette=0.5))
    assert out[30, 40, 0] > 0.49
    assert out[0, 0, 0] < 0.3


def test_a_photo_out_of_focus_is_soft_and_a_shaken_one_streaked_along_its_shake() -> None:
    dot = np.zeros((101, 101, 3), np.float32)
    dot[50, 50] = 1.0
    soft = apply_light_faults(dot, Realism(focus_blur=0.02))  # sigma 2 px
    assert soft[50, 50, 0] < 0.1 and soft[50, 52, 0] > 0.01 and soft[52, 50, 0] > 0.01
    assert abs(float(soft.sum()) - 3.0) < 0.01  # the light is spread, not lost
    across = apply_light_faults(dot, Realism(motion_blur=(0.09, 0.0)))  # 9 px, level
    assert across[50, 46, 0] > 0.05 and across[46, 50, 0] == 0.0
    down = apply_light_faults(dot, Realism(motion_blur=(0.09, 90.0)))
    assert down[46, 50, 0] > 0.05 and down[50, 46, 0] == 0.0


def test_a_close_up_is_as_blurred_as_the_photo_round_it() -> None:
    from blackcat.workshop.synth.realism import seen_closer

    shaken = Realism(focus_blur=0.002, motion_blur=(0.004, 30.0), exposure=0.5)
    closer = seen_closer(shaken, 10.0)  # a crop a tenth of the photo across
    assert closer.focus_blur == 0.02 and closer.motion_blur == (0.04, 30.0)
    assert closer.exposure == 0.5


def test_video_compression_and_speckle_change_the_picture_but_keep_its_size() -> None:
    rng = np.random.default_rng(1)
    photo = (rng.random((64, 96, 3)) * 255).astype(np.uint8)
    out = apply_sensor_faults(photo, Realism(video_quality=15, speckle=0.01), rng)
    assert out.shape == photo.shape and not np.array_equal(out, photo)


def test_fingers_never_cover_a_labelled_index() -> None:
    image = np.full((200, 300, 3), 128, np.uint8)
    card = np.array([[100, 50], [200, 50], [200, 150], [100, 150]], float)
    index = np.array([[105, 55], [120, 55], [120, 80], [105, 80]], float)
    drawn = 0
    for seed in range(20):
        out = draw_fingers(image, 2, [index], [card], np.random.default_rng(seed))
        centre = index.mean(axis=0)
        grown = np.round(centre + (index - centre) * 1.6).astype(int)
        (x0, y0), (x1, y1) = grown.min(axis=0), grown.max(axis=0)
        assert np.array_equal(out[y0:y1, x0:x1], image[y0:y1, x0:x1])
        drawn += int(not np.array_equal(out, image))
    assert drawn > 0  # some fingers were drawn at all


def test_a_squeezed_frame_is_smaller_along_one_axis_and_maps_points_the_same_way() -> None:
    camera = Camera(np.eye(3), 640, 480, 0.0, 0.0)
    out = squeezed(camera, Realism(squeeze=(0.5, 1.0)))
    assert (out.width, out.height) == (320, 480)
    assert np.allclose(out.plane_to_image @ [100, 100, 1], [50, 100, 1])
    assert squeezed(camera, NEUTRAL) is camera


def test_faults_are_drawn_the_same_for_the_same_scene_and_recorded_when_there() -> None:
    drawn = [random_realism(realism_rng(5, i)) for i in range(200)]
    assert drawn == [random_realism(realism_rng(5, i)) for i in range(200)]
    assert 0.15 < sum(r.is_neutral for r in drawn) / 200 < 0.45
    assert any(r.squeeze != (1.0, 1.0) for r in drawn)
    assert any(r.fingers for r in drawn)
    assert 0.05 < sum(bool(r.focus_blur) for r in drawn) / 200 < 0.2
    assert any(r.motion_blur[0] and 0 <= r.motion_blur[1] <= 180 for r in drawn)
    assert realism_parameters(Realism(exposure=0.5, squeeze=(0.7, 1.0))) == {
        "exposure": 0.5,
        "squeeze": [0.7, 1.0],
    }


def test_a_dark_faced_card_has_black_paper_and_light_metal_ink() -> None:
    art = np.zeros((4, 3, 4), np.uint8)
    art[..., 3] = 255
    art[0, :, :3] = 255  # paper
    art[1, :, :3] = 0  # black ink
    art[2, :, :3] = (35, 25, 200)  # red ink (BGR)
    out = dark_faced(art, DARK_INKS["gold"], keep_red=True)
    assert out[0, 0, :3].max() < 40
    assert np.allclose(out[1, 0, :3], DARK_INKS["gold"], atol=2)
    assert out[2, 0, 2] > 150 and out[2, 0, 1] < 100  # still red
    assert np.array_equal(out[..., 3], art[..., 3])
    metal = dark_faced(art, DARK_INKS["silver"], keep_red=False)
    assert abs(int(metal[2, 0, 2]) - int(metal[2, 0, 0])) < 40  # red ink in silver too


def test_a_photo_of_piles_under_camera_faults_is_squeezed_and_keeps_its_cards(test_decks) -> None:
    from blackcat.workshop.synth.scene import render_piles

    piles = [["8D", "2H", "8H"], ["KS", "9C"]]
    plain = render_piles(piles, deck="plastic", imgsz=400, seed=3)
    faulty = render_piles(
        piles, deck="plastic", imgsz=400, seed=3, realism=Realism(squeeze=(0.5, 1.0), fingers=2)
    )
    assert faulty.height == plain.height
    assert faulty.width == round(plain.width * 0.5)
    assert faulty.meta["piles"] == plain.meta["piles"] == piles
    assert faulty.meta["realism"] == {"squeeze": [0.5, 1.0], "fingers": 2}
    assert "realism" not in plain.meta
