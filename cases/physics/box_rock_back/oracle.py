"""Oracle: a tall standing block set rotating about its bottom edge at 1 rad/s rocks a few degrees and falls back."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
OMEGA = 1.0  # rad/s about the bottom edge at x = +5 cm; 1.46 rad/s is the least that tips it

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.8))
block = scene.add_entity(
    gs.morphs.Box(size=(0.1, 0.1, 0.4), pos=(0.0, 0.0, 0.2)),
    material=gs.materials.Rigid(rho=600.0, friction=0.8),
    surface=gs.surfaces.Default(color=(0.3, 0.4, 0.7)),
)
cam = scene.add_camera(res=RES, pos=(0.3, -2.0, 0.5), lookat=(0.2, 0.0, 0.2), fov=40, GUI=False)
scene.build()
# rotation about the edge (x, z) = (0.05, 0): the centre moves at omega x (-0.05, 0, 0.2) = omega (0.2, 0, 0.05)
block.set_dofs_velocity([0.2 * OMEGA, 0.0, 0.05 * OMEGA, 0.0, OMEGA, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
