"""Oracle: an elastic jelly cube (MPM) dropped onto rigid ground bounces and keeps its shape."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=1800 // FPS, gravity=(0.0, 0.0, -9.81)),
    mpm_options=gs.options.MPMOptions(lower_bound=(-0.3, -0.3, -0.12), upper_bound=(0.3, 0.3, 0.7), grid_density=32),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
jelly = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, 0.5)),
    material=gs.materials.MPM.Elastic(E=5e4, nu=0.3, rho=1000.0),
    surface=gs.surfaces.Default(color=(0.9, 0.3, 0.4)),
)
cam = scene.add_camera(res=RES, pos=(1.6, -1.6, 0.7), lookat=(0.0, 0.0, 0.25), fov=35, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
