// Cloth vertex shader: one vertex per triangle corner (non-indexed geometry), so a per-element
// value (area error, strain) is constant over each element and the wireframe can hide the
// diagonals that split quads.
attribute float value;     // the element's colour-map value, in colour-bar units
attribute vec3 barycentric; // (1,0,0), (0,1,0), (0,0,1) at the three corners
attribute vec3 edgeMask;   // component i: 1 when the edge opposite corner i is a mesh edge

varying vec3 vNormal;      // view space
varying vec3 vViewPosition;
varying float vValue;
varying vec3 vBarycentric;
varying vec3 vEdgeMask;

void main() {
  vec4 viewPosition = modelViewMatrix * vec4(position, 1.0);
  vViewPosition = -viewPosition.xyz;
  vNormal = normalize(normalMatrix * normal);
  vValue = value;
  vBarycentric = barycentric;
  vEdgeMask = edgeMask;
  gl_Position = projectionMatrix * viewPosition;
}
