// The renderer, scene, camera and orbit controls every 3D view of the page is built on.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { BACKGROUND } from './palette.js';

// True when WebGL is rasterized on the CPU (SwiftShader, llvmpipe): there, multisampling costs
// CPU time that the simulator needs, so the view draws without it.
export function softwareRendering() {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}

// What every 3D view of the page shares: a renderer on `canvas` (no multisampling on a
// CPU-rasterized WebGL), a scene, an orbiting perspective camera with the given clip range,
// and resize(), which matches the drawing buffer and the camera to the canvas's CSS size and
// returns true when it changed them.
export function createStage(canvas, { near, far }) {
  const software = softwareRendering();
  // preserveDrawingBuffer lets tests and the PNG export read the pixels after a frame
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: !software, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setClearColor(BACKGROUND);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, near, far);
  const controls = new OrbitControls(camera, canvas);
  function resize() {
    const width = canvas.clientWidth || 1;
    const height = canvas.clientHeight || 1;
    if (canvas.width === Math.round(width * renderer.getPixelRatio()) &&
        canvas.height === Math.round(height * renderer.getPixelRatio())) return false;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    return true;
  }
  return { renderer, scene, camera, controls, software, resize };
}
