// The generator's vocabulary: guide texts are drawn from these lists, and the search and suggest
// scenarios query words from them, so every query finds something.

export const VERBS = [
  'remove', 'disconnect', 'lift', 'pry', 'unscrew', 'insert', 'replace', 'clean', 'inspect', 'align', 'press', 'slide',
  'heat', 'apply', 'peel', 'release', 'reconnect', 'tighten', 'loosen', 'rotate', 'hold', 'push', 'pull', 'check',
  'measure', 'solder', 'desolder', 'test', 'secure', 'attach', 'detach', 'separate', 'open', 'close', 'wipe', 'mark',
  'route', 'fold', 'flip', 'guide', 'seat', 'calibrate', 'drain', 'flush', 'lubricate', 'cut', 'trim', 'glue',
];

/** Words of almost every guide (as in real repair texts). */
export const GENERIC_NOUNS = ['screw', 'cable', 'connector', 'clip', 'cover', 'bracket', 'edge', 'side', 'tab', 'device', 'part', 'tool'];

/** The parts a guide is about: each guide uses a handful of them, so each is in a few percent of guides. */
export const PART_NOUNS = [
  'battery', 'screen', 'display', 'digitizer', 'ribbon', 'adhesive',
  'housing', 'frame', 'panel', 'shield', 'board', 'motherboard', 'camera', 'lens', 'speaker', 'microphone',
  'antenna', 'button', 'switch', 'port', 'socket', 'fan', 'heatsink', 'thermal', 'paste', 'gasket', 'seal', 'hinge',
  'keyboard', 'trackpad', 'drive', 'memory', 'module', 'sensor', 'motor', 'belt', 'pulley', 'gear', 'spring', 'valve',
  'pump', 'filter', 'hose', 'nozzle', 'reservoir', 'heater', 'element', 'thermostat', 'fuse', 'relay', 'capacitor',
  'resistor', 'coil', 'joystick', 'trigger', 'bumper', 'shell', 'bezel', 'tray', 'latch', 'standoff', 'spacer',
  'washer', 'nut', 'bolt', 'pin', 'wire', 'plug', 'jack', 'charger', 'adapter', 'lid', 'door', 'drum', 'bearing',
];

export const ADJECTIVES = [
  'small', 'large', 'upper', 'lower', 'left', 'right', 'front', 'rear', 'inner', 'outer', 'flat', 'narrow', 'wide',
  'fragile', 'delicate', 'stubborn', 'loose', 'tight', 'hidden', 'visible', 'black', 'silver', 'copper', 'plastic',
  'metal', 'rubber', 'brittle', 'flexible', 'sharp', 'warm', 'clean', 'old', 'new', 'spare', 'main', 'secondary',
];

export const TOOLS = [
  'spudger', 'tweezers', 'screwdriver', 'opening pick', 'suction handle', 'heat gun', 'iOpener', 'pliers', 'multimeter',
  'soldering iron', 'flux', 'isopropyl alcohol', 'brush', 'pry bar', 'torx driver', 'hex key', 'magnetic mat',
];

export const FILLER = [
  'the', 'a', 'and', 'with', 'from', 'to', 'of', 'under', 'over', 'near', 'along', 'carefully', 'gently', 'firmly',
  'slowly', 'until', 'then', 'before', 'after', 'while', 'around', 'into', 'onto', 'against', 'between', 'each', 'both',
];

/** Category names are built from these (invented product names, no real brands). */
export const FAMILIES = [
  'Phone', 'Tablet', 'Laptop', 'Desktop', 'Console', 'Camera', 'Watch', 'Headphones', 'Speaker', 'Router', 'Printer',
  'Monitor', 'Television', 'Projector', 'Drone', 'Blender', 'Toaster', 'Kettle', 'Coffee Maker', 'Vacuum', 'Washer',
  'Dryer', 'Dishwasher', 'Refrigerator', 'Oven', 'Microwave', 'Bicycle', 'Scooter', 'Lawn Mower', 'Drill', 'Guitar',
  'Amplifier', 'Keyboard', 'Controller', 'Radio', 'Clock', 'Lamp', 'Fan', 'Heater', 'Sewing Machine',
];

export const MAKERS = [
  'Arvex', 'Briskon', 'Corvant', 'Dellix', 'Estrova', 'Fennix', 'Galdrix', 'Helvion', 'Istrada', 'Jorvex', 'Kestron',
  'Lumetra', 'Marvex', 'Norvika', 'Orlix', 'Pellatron', 'Quorvex', 'Ravelto', 'Sorrex', 'Tamvex', 'Ulmetra', 'Vardix',
  'Wexlon', 'Yarrix',
];

/** Words of user names, team names and product series (landscape and animal words, not given names). */
export const NAME_WORDS = [
  'Basalt', 'Birch', 'Cedar', 'Cobalt', 'Comet', 'Copper', 'Delta', 'Fjord', 'Glacier', 'Granite', 'Gravel', 'Harbor',
  'Kelp', 'Lichen', 'Moss', 'Nimbus', 'Ochre', 'Onyx', 'Pebble', 'Quartz', 'Slate', 'Thistle', 'Tundra', 'Umber',
  'Velvet', 'Zephyr', 'Falcon', 'Otter', 'Badger', 'Lynx', 'Marten', 'Osprey', 'Plover', 'Wren', 'Beaver', 'Bison',
];

export const TAGS = ['battery', 'screen', 'beginner', 'advanced', 'teardown', 'water damage', 'cleaning', 'soldering', 'adhesive', 'quick fix'];

/** Every noun of the texts. */
export const NOUNS = [...GENERIC_NOUNS, ...PART_NOUNS];
