"""Second solution: a 20 cm cube of water (MPM liquid) dropped into a 40 cm square tank spreads over its floor.

Written from the prompt apart from the oracle. It varies: an MPM grid of 28 cells per metre sampled at half a cell
(particle size 1/56 m), the tank's walls and floor placed exactly by the MPM domain (Genesis keeps particles 3 cells
inside the bounds it is given), two simulation steps per video frame (dt = 1/(2 FPS)) with substeps of about 1/2000
s (the default liquid's sound speed, about 24 m/s, within the grid's CFL limit), and the camera added first.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
GRID = 28
PAD = 3.0 / GRID  # Genesis keeps MPM particles this far inside the domain's bounds
TANK_X, TANK_Y, TANK_TOP = 0.2, 0.2, 0.7  # the tank's inner half-length, half-width and height

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(2000 * DT)), gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(
        lower_bound=(-TANK_X - PAD, -TANK_Y - PAD, -PAD),
        upper_bound=(TANK_X + PAD, TANK_Y + PAD, TANK_TOP + PAD),
        grid_density=GRID,
        particle_size=0.5 / GRID,
    ),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.0, -1.8, 0.6), lookat=(0.0, 0.0, 0.25), fov=40, GUI=False)
scene.add_entity(gs.morphs.Plane())
water = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.45), size=(0.2, 0.2, 0.2)),
    material=gs.materials.MPM.Liquid(rho=1000.0),
    surface=gs.surfaces.Default(color=(0.15, 0.4, 0.95)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
