// The byte-level check of jetdepth's ROS 2 messages, independent of the code that wrote them:
// decode each captured sample (tests/ros2/ros2_listen writes DIR/<topic>.<n>.cdr) with
// @foxglove/rosmsg2-serialization against ROS 2's own definitions (@foxglove/rosmsg-msgs-common;
// vision_msgs, which it lacks, written below from the package's public .msg files), then
//  - compare every field with what the listener decoded through Cyclone (DIR/samples.jsonl),
//    and fail on a field of the definition the listener did not report;
//  - check the contents against the daemon's JSON for the same frame (matched by stamp):
//    objects' boxes and track ids, the table, markers; and the images against each other.
// usage: node check_cdr.mjs DIR FRAMES.jsonl WIDTH HEIGHT FRAME_ID
import { readFileSync } from "node:fs";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import { ros2humble, ros2jazzy } from "@foxglove/rosmsg-msgs-common";

const [dir, framesPath, W, H, frameId] = process.argv.slice(2);
let failures = 0, checks = 0;
function check(cond, ...what) {
  checks++;
  if (!cond && failures++ < 30) console.error("FAIL:", ...what);
}

// vision_msgs 4.x (ROS 2 Humble and Jazzy): msg/ObjectHypothesis.msg, ObjectHypothesisWithPose,
// BoundingBox3D, Detection3D, Detection3DArray.
const f = (name, type, isArray = false) => ({
  name, type, isArray, isComplex: type.includes("/"),
});
const vision = {
  "vision_msgs/ObjectHypothesis": [f("class_id", "string"), f("score", "float64")],
  "vision_msgs/ObjectHypothesisWithPose": [
    f("hypothesis", "vision_msgs/ObjectHypothesis"),
    f("pose", "geometry_msgs/PoseWithCovariance"),
  ],
  "vision_msgs/BoundingBox3D": [f("center", "geometry_msgs/Pose"), f("size", "geometry_msgs/Vector3")],
  "vision_msgs/Detection3D": [
    f("header", "std_msgs/Header"),
    f("results", "vision_msgs/ObjectHypothesisWithPose", true),
    f("bbox", "vision_msgs/BoundingBox3D"),
    f("id", "string"),
  ],
  "vision_msgs/Detection3DArray": [
    f("header", "std_msgs/Header"),
    f("detections", "vision_msgs/Detection3D", true),
  ],
};

const topicType = {
  "left/image_rect": "sensor_msgs/Image",
  "left/camera_info": "sensor_msgs/CameraInfo",
  "right/camera_info": "sensor_msgs/CameraInfo",
  disparity: "stereo_msgs/DisparityImage",
  depth: "sensor_msgs/Image",
  confidence: "sensor_msgs/Image",
  points: "sensor_msgs/PointCloud2",
  objects: "vision_msgs/Detection3DArray",
  table: "geometry_msgs/PoseStamped",
  markers: "visualization_msgs/MarkerArray",
};

function readerFor(distro, type) {
  const all = { ...distro };
  for (const [name, definitions] of Object.entries(vision)) all[name] = { name, definitions };
  const root = all[type];
  if (!root) throw new Error(`no definition of ${type}`);
  const others = Object.values(all).filter((d) => d.name !== type);
  return new MessageReader([{ definitions: root.definitions }, ...others]);
}

const approx = (a, b, tol) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

// Compare the independent decoding d with the listener's report l, field by field.
// Byte arrays are reported as lengths and byte sums; other arrays of structs element-wise.
function compare(d, l, path) {
  if (d instanceof Uint8Array || d instanceof Int8Array) {
    check(typeof l === "number", `${path}: the listener reported no length`);
    check(d.length === l, `${path}: ${d.length} bytes decoded, the listener ${l}`);
    return;
  }
  if (Array.isArray(d) || ArrayBuffer.isView(d)) {
    if (typeof l === "number") { // an array the listener counted
      check(d.length === l, `${path}: ${d.length} elements decoded, the listener ${l}`);
      return;
    }
    check(Array.isArray(l) && l.length === d.length, `${path}: length ${d.length} vs ${l && l.length}`);
    for (let i = 0; i < d.length && Array.isArray(l); i++) compare(d[i], l[i], `${path}[${i}]`);
    return;
  }
  if (d !== null && typeof d === "object") {
    for (const k of Object.keys(d)) {
      if (k === "data" && typeof l.data_length === "number") {
        check(d.data.length === l.data_length, `${path}.data: ${d.data.length} vs ${l.data_length}`);
        let sum = 0;
        for (const b of d.data) sum = (sum + b) >>> 0;
        check(sum === l.data_sum, `${path}.data: byte sum ${sum} vs ${l.data_sum}`);
        continue;
      }
      check(k in l, `${path}.${k}: in ROS 2's definition, not reported by the listener`);
      if (k in l) compare(d[k], l[k], `${path}.${k}`);
    }
    return;
  }
  if (typeof d === "number") {
    check(typeof l === "number" && approx(d, l, 1e-6), `${path}: ${d} decoded, the listener ${l}`);
  } else if (typeof d === "bigint") {
    check(BigInt(l) === d, `${path}: ${d} vs ${l}`);
  } else {
    check(d === l, `${path}: ${JSON.stringify(d)} decoded, the listener ${JSON.stringify(l)}`);
  }
}

const samples = readFileSync(`${dir}/samples.jsonl`, "utf8").trim().split("\n").map((s) => JSON.parse(s));
const frames = readFileSync(framesPath, "utf8").trim().split("\n").map((s) => JSON.parse(s));
const byStamp = new Map(frames.filter((r) => r.ros_stamp).map((r) => [`${r.ros_stamp.sec}.${r.ros_stamp.nanosec}`, r]));
check(byStamp.size === frames.length, `${frames.length - byStamp.size} JSON frame(s) without ros_stamp`);

const decoded = []; // {topic, msg, stamp}
for (const distro of [ros2humble, ros2jazzy]) {
  for (const s of samples) {
    const file = `${dir}/${s.topic.replace("/", "_")}.${s.n}.cdr`;
    const bytes = readFileSync(file);
    check(bytes.length === s.bytes, `${file}: ${bytes.length} bytes, the listener said ${s.bytes}`);
    check(bytes[0] === 0 && bytes[1] === 1, `${file}: encapsulation ${bytes[0]} ${bytes[1]}, not CDR_LE (0 1)`);
    const msg = readerFor(distro, topicType[s.topic]).readMessage(bytes);
    compare(msg, s.msg, s.topic);
    if (distro === ros2jazzy) decoded.push({ topic: s.topic, msg });
  }
}

// Contents against the daemon's JSON and against each other.
const stampOf = (m) => {
  const h = m.header || (m.markers && m.markers[0] && m.markers[0].header);
  return h ? `${h.stamp.sec}.${h.stamp.nanosec}` : null;
};
const runLog = readFileSync(framesPath.replace(/frames\.jsonl$/, "run.err"), "utf8");
const model = /sensing: f ([\d.]+) px, principal point \(([\d.]+), ([\d.]+)\), baseline ([\d.]+) mm/.exec(runLog);
check(model, "the daemon's log gave no camera model");
const [fpx, cx, cy, baseMm] = model.slice(1).map(Number);
const sub = (a, b) => a.map((v, i) => v - b[i]);
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
const scale = (a, k) => a.map((v) => v * k);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => scale(a, 1 / Math.hypot(...a));
// the columns of a quaternion's rotation matrix
function axes(q) {
  const { x, y, z, w } = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const P = (p) => [p.x, p.y, p.z];

const byTopicStamp = new Map(decoded.map((d) => [`${d.topic}@${stampOf(d.msg)}`, d.msg]));
let matched = 0;
for (const { topic, msg } of decoded) {
  const stamp = stampOf(msg);
  const rep = byStamp.get(stamp);
  check(rep, `${topic}: stamp ${stamp} is no frame's ros_stamp in the daemon's JSON`);
  if (!rep) continue;
  matched++;
  if (msg.header) check(msg.header.frame_id === frameId, `${topic}: frame_id ${msg.header.frame_id}`);
  const n = rep.table && norm(rep.table.normal);
  if (topic === "objects") {
    check(msg.detections.length === rep.objects.length, `objects: ${msg.detections.length} detections, JSON ${rep.objects.length}`);
    msg.detections.forEach((d, i) => {
      const o = rep.objects[i];
      if (!o) return;
      check(d.id === String(o.track.id), `objects[${i}]: id ${d.id}, track ${o.track.id}`);
      check(approx(d.results[0].hypothesis.score, o.quality, 1e-4), `objects[${i}]: score ${d.results[0].hypothesis.score}, quality ${o.quality}`);
      check(d.results[0].hypothesis.class_id === "object", `objects[${i}]: class ${d.results[0].hypothesis.class_id}`);
      // the box: x along the footprint's yaw on the table, z up (-normal), from the footprint
      const up = scale(n, -1);
      const e1 = norm([1 - n[0] * n[0], -n[0] * n[1], -n[0] * n[2]]);
      const e2 = cross(n, e1);
      const yaw = (o.footprint.yaw_deg * Math.PI) / 180;
      const u = e1.map((v, k) => Math.cos(yaw) * v + Math.sin(yaw) * e2[k]);
      const [bx, , bz] = axes(d.bbox.center.orientation);
      check(near(bx, u, 2e-3) && near(bz, up, 2e-3), `objects[${i}]: box axes ${bx} ${bz}, expected ${u} ${up}`);
      const centre = o.footprint.center_mm.map((v, k) => (v + (up[k] * o.height_mm) / 2) / 1000);
      check(near(P(d.bbox.center.position), centre, 1e-3), `objects[${i}]: centre ${JSON.stringify(d.bbox.center.position)}, expected ${centre}`);
      const size = [o.footprint.length_mm, o.footprint.width_mm, o.height_mm].map((v) => v / 1000);
      check(near(P(d.bbox.size), size, 1e-3), `objects[${i}]: size ${JSON.stringify(d.bbox.size)}, expected ${size}`);
    });
  } else if (topic === "table") {
    check(rep.table, "table: sent for a frame without a table");
    if (!rep.table) continue;
    const [, , z] = axes(msg.pose.orientation);
    check(near(z, scale(n, -1), 1e-3), `table: z axis ${z}, expected -normal ${scale(n, -1)}`);
    const pos = P(msg.pose.position);
    check(approx(-dot(pos, z) * 1000, rep.table.distance_mm, 1e-3), `table: distance ${-dot(pos, z) * 1000} mm, JSON ${rep.table.distance_mm}`);
    check(near(pos.slice(0, 2), [0, 0], 1e-9), "table: origin off the optical axis");
  } else if (topic === "markers") {
    const m = msg.markers;
    check(m[0].action === 3, "markers: the first is not DELETEALL");
    check(m.length === 1 + 2 * rep.objects.length, `markers: ${m.length} for ${rep.objects.length} objects`);
    rep.objects.forEach((o, i) => {
      const box = m[1 + 2 * i], label = m[2 + 2 * i];
      if (!box || !label) return;
      check(box.type === 1 && box.action === 0 && label.type === 9, `markers: object ${i}: types ${box.type} ${label.type}`);
      check(label.text.startsWith(`#${o.track.id} `), `markers: label '${label.text}', track ${o.track.id}`);
      check(box.lifetime.sec === 1, "markers: lifetime");
    });
  } else if (topic.endsWith("camera_info")) {
    check(msg.k[0] === fpx && msg.k[2] === cx && msg.k[5] === cy, `${topic}: K ${msg.k}`);
    const tx = topic.startsWith("right") ? (-fpx * baseMm) / 1000 : 0;
    check(approx(msg.p[3], tx, 1e-9), `${topic}: P's Tx ${msg.p[3]}, expected ${tx}`);
  } else if (topic === "depth") {
    const disp = byTopicStamp.get(`disparity@${stamp}`);
    const conf = byTopicStamp.get(`confidence@${stamp}`);
    const z = new Float32Array(msg.data.buffer.slice(msg.data.byteOffset, msg.data.byteOffset + msg.data.length));
    let nan = 0;
    z.forEach((v) => { nan += Number.isNaN(v); });
    check(nan > 0 && nan < z.length, `depth: ${nan} of ${z.length} NaN`);
    if (disp) {
      const d = new Float32Array(disp.image.data.buffer.slice(disp.image.data.byteOffset, disp.image.data.byteOffset + disp.image.data.length));
      let bad = 0;
      for (let i = 0; i < z.length; i++) {
        const valid = d[i] >= disp.min_disparity && d[i] > 0;
        if (valid ? !approx(z[i], (disp.f * disp.t) / d[i], 1e-5) : !Number.isNaN(z[i])) bad++;
      }
      check(bad === 0, `depth: ${bad} pixel(s) not f*T/d (or NaN where the disparity is invalid)`);
    }
    if (conf) {
      let bad = 0;
      for (let i = 0; i < z.length; i++) if (conf.data[i] < 32 && !Number.isNaN(z[i])) bad++;
      check(bad === 0, `depth: ${bad} pixel(s) with depth below the confidence threshold`);
    }
  } else if (topic === "points") {
    const depth = byTopicStamp.get(`depth@${stamp}`);
    const v = new DataView(msg.data.buffer, msg.data.byteOffset, msg.data.length);
    let bad = 0;
    for (let i = 0; i < msg.width; i++) {
      const [x, y, z, g] = [0, 4, 8, 12].map((o) => v.getFloat32(i * 16 + o, true));
      if (!(z > 0 && Number.isFinite(x) && Number.isFinite(y) && g >= 0 && g <= 255)) bad++;
    }
    check(bad === 0, `points: ${bad} point(s) not finite, in front, intensity 0..255`);
    if (depth) {
      const z = new Float32Array(depth.data.buffer.slice(depth.data.byteOffset, depth.data.byteOffset + depth.data.length));
      const valid = z.filter((q) => !Number.isNaN(q)).length;
      check(valid === msg.width, `points: ${msg.width}, valid depth pixels ${valid}`);
      // the i-th point is the i-th pixel with depth (row-major): its z that depth to the bit,
      // x and y the pixel's ray through the camera model
      let i = 0, off = 0;
      for (let k = 0; k < z.length && i < msg.width; k++) {
        if (Number.isNaN(z[k])) continue;
        const u = k % depth.width, vv = Math.floor(k / depth.width);
        const [px, py, pz] = [0, 4, 8].map((o) => v.getFloat32(i * 16 + o, true));
        if (pz !== z[k] || !approx(px, ((u - cx) * pz) / fpx, 1e-5) || !approx(py, ((vv - cy) * pz) / fpx, 1e-5)) off++;
        i++;
      }
      check(off === 0, `points: ${off} point(s) not at their pixel's depth and ray`);
    }
  } else if (topic === "left/image_rect" || topic === "confidence") {
    check(msg.width === Number(W) && msg.height === Number(H) && msg.encoding === "mono8", `${topic}: ${msg.width}x${msg.height} ${msg.encoding}`);
  }
}
const topicsSeen = new Set(decoded.map((d) => d.topic));
check(topicsSeen.size === Object.keys(topicType).length, `decoded topics: ${[...topicsSeen]}`);
check(matched === decoded.length, `${decoded.length - matched} sample(s) without their frame`);
if (failures) {
  console.error(`check_cdr: ${failures} of ${checks} checks failed`);
  process.exit(1);
}
console.log(`ok: ${samples.length} samples of ${topicsSeen.size} topics decoded by @foxglove/rosmsg2-serialization with ROS 2 Humble's and Jazzy's definitions; every field equals the listener's decoding; contents match the daemon's JSON for their frames (${checks} checks)`);
