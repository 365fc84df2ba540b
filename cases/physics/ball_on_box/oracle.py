"""Oracle: a steel ball dropped onto the middle of a wooden cube resting on the ground comes to rest on top of it."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
scene.add_entity(
    gs.morphs.Box(size=(0.3, 0.3, 0.3), pos=(0.0, 0.0, 0.15)),
    material=gs.materials.Rigid(rho=600.0, friction=0.6),
    surface=gs.surfaces.Default(color=(0.6, 0.45, 0.25)),
)
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.05, pos=(0.0, 0.0, 1.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.7, 0.7, 0.75)),
)
cam = scene.add_camera(res=RES, pos=(2.0, -2.0, 1.0), lookat=(0.0, 0.0, 0.4), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
