"""Oracle: a 20 cm wooden block pushed at 2 m/s slides on a floor with friction coefficient 0.3 until it stops."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
floor_material = gs.materials.Rigid(friction=0.3)
scene.add_entity(gs.morphs.Plane(), material=floor_material)
block = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(-0.5, 0.0, 0.1)),
    material=gs.materials.Rigid(rho=500.0, friction=0.3),
    surface=gs.surfaces.Default(color=(0.6, 0.4, 0.2)),
)
cam = scene.add_camera(res=RES, pos=(0.2, -3.0, 1.0), lookat=(0.2, 0.0, 0.1), fov=40, GUI=False)
scene.build()
block.set_dofs_velocity([2.0, 0.0, 0.0, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
