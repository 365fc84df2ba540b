"""Oracle: an upright aluminium cylinder dropped from 0.8 m lands on its base and stays standing."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
can = scene.add_entity(
    gs.morphs.Cylinder(radius=0.08, height=0.3, pos=(0.0, 0.0, 0.8)),
    material=gs.materials.Rigid(rho=2700.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.8, 0.8, 0.85)),
)
cam = scene.add_camera(res=RES, pos=(2.5, -2.5, 1.0), lookat=(0.0, 0.0, 0.4), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
