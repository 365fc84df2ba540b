"""Oracle: a small, stiffer jelly cube (MPM) dropped from higher up bounces and keeps its shape."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=1800 // FPS, gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(lower_bound=(-0.3, -0.3, -0.12), upper_bound=(0.3, 0.3, 0.8), grid_density=32),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
jelly = scene.add_entity(
    gs.morphs.Box(size=(0.15, 0.15, 0.15), pos=(0.0, 0.0, 0.6)),
    material=gs.materials.MPM.Elastic(E=3e5, nu=0.3, rho=1100.0),
    surface=gs.surfaces.Default(color=(0.3, 0.8, 0.4)),
)
cam = scene.add_camera(res=RES, pos=(1.6, -1.6, 0.8), lookat=(0.0, 0.0, 0.3), fov=35, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
