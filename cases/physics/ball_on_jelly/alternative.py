"""Second solution: a wooden ball dropped from 0.5 m onto a soft elastic jelly slab (MPM) that throws it back up.

Written from the prompt apart from the oracle. It varies: an MPM grid of 40 cells per metre sampled on a regular
lattice, two simulation steps per video frame (dt = 1/(2 FPS)) with substeps of about 1/2000 s, the ball created
before the slab and given a friction of 0.4 (left free), the MPM domain reaching 15 cm below the ground, and a
camera straight from the side, added first.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
GRID = 40

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(2000 * DT)), gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(lower_bound=(-0.4, -0.4, -0.15), upper_bound=(0.4, 0.4, 0.7), grid_density=GRID),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.0, -2.0, 0.5), lookat=(0.0, 0.0, 0.2), fov=40, GUI=False)
ball = scene.add_entity(
    gs.morphs.Sphere(pos=(0.0, 0.0, 0.5), radius=0.05),
    material=gs.materials.Rigid(rho=700.0, friction=0.4),
    surface=gs.surfaces.Default(color=(0.65, 0.45, 0.25)),
)
slab = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.05), size=(0.4, 0.4, 0.1)),
    material=gs.materials.MPM.Elastic(rho=1000.0, E=2e4, nu=0.3, sampler="regular"),
    surface=gs.surfaces.Default(color=(0.45, 0.85, 0.55)),
)
scene.add_entity(gs.morphs.Plane())
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
