// The colours the 3D views share.
export const BACKGROUND = 0xf4f3ef;
export const FRONT_COLOR = 0xd0583a;    // the cloth's front side
export const BACK_COLOR = 0x3a7bd0;     // its back side
export const OBSTACLE_COLOR = 0x8d97a3; // solids: grey-blue, not counted as cloth pixels
