// Cloth fragment shader: two-sided shading (front and back colours, the normal flipped on the
// back), an optional viridis colour map of a per-element value, an optional wireframe drawn
// from barycentric coordinates (one pixel wide at any distance). Colours are linear; three.js's
// colorspace chunk converts to the output (sRGB).
uniform vec3 frontColor;
uniform vec3 backColor;
uniform vec3 lightDirection;  // view space, towards the light
uniform float useColormap;    // 0: plain colours, 1: viridis over [0, max], 2: diverging over [-max, max]
uniform float colormapMax;    // value shown at the top of the colour bar
uniform float wireframe;      // 0 or 1

varying vec3 vNormal;
varying vec3 vViewPosition;
varying float vValue;
varying vec3 vBarycentric;
varying vec3 vEdgeMask;

// viridis, a polynomial fit of matplotlib's table (the same as web/src/render/colormap.js)
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

// a blue-grey-red diverging map for signed values (the same as web/src/render/colormap.js)
vec3 diverging(float t) {
  vec3 low = vec3(0.230, 0.299, 0.754);
  vec3 mid = vec3(0.865, 0.865, 0.865);
  vec3 high = vec3(0.706, 0.016, 0.150);
  return t < 0.5 ? mix(low, mid, t * 2.0) : mix(mid, high, t * 2.0 - 1.0);
}

void main() {
  vec3 normal = normalize(vNormal);
  if (!gl_FrontFacing) normal = -normal;
  vec3 base = gl_FrontFacing ? frontColor : backColor;
  if (useColormap > 0.5) {
    // the maps give sRGB; lighting works in linear light like the colour uniforms
    float scale = max(colormapMax, 1e-12);
    vec3 srgb = useColormap > 1.5 ? diverging(clamp(0.5 + 0.5 * vValue / scale, 0.0, 1.0))
                                  : viridis(clamp(vValue / scale, 0.0, 1.0));
    base = pow(clamp(srgb, 0.0, 1.0), vec3(2.2));
  }

  // hemisphere ambient + one directional light + a soft specular sheen
  vec3 light = normalize(lightDirection);
  float diffuse = max(dot(normal, light), 0.0);
  float sky = 0.5 + 0.5 * normal.y;
  vec3 viewDirection = normalize(vViewPosition);
  float sheen = pow(max(dot(normal, normalize(light + viewDirection)), 0.0), 24.0);
  vec3 color = base * (0.38 + 0.22 * sky + 0.55 * diffuse) + vec3(0.06) * sheen;

  if (wireframe > 0.5) {
    vec3 width = fwidth(vBarycentric);
    vec3 edge = smoothstep(vec3(0.0), width * 1.2, vBarycentric);
    // edges that are not mesh edges (quad diagonals) never draw
    edge = mix(vec3(1.0), edge, vEdgeMask);
    float line = 1.0 - min(min(edge.x, edge.y), edge.z);
    color = mix(color, vec3(0.12, 0.12, 0.14), 0.85 * line);
  }
  gl_FragColor = vec4(color, 1.0);
  #include <colorspace_fragment>
}
