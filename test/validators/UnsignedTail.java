import java.util.*;
import org.apache.pdfbox.cos.*;
import org.apache.pdfbox.pdmodel.PDDocument;

/**
 * Revisions after the last one a signature covers may only add validation data: the catalog may gain or
 * change /DSS, objects reachable from /DSS may be new, xref and object streams may be written, and an
 * object may be rewritten with the same content. Anything else is a change nobody signed.
 */
class UnsignedTail {
    final SignatureCheck file;
    final PDDocument doc;

    UnsignedTail(SignatureCheck file, PDDocument doc) {
        this.file = file;
        this.doc = doc;
    }

    Map<String, Object> check(List<Map<String, Object>> sigs, boolean allow) {
        Map<String, Object> t = new LinkedHashMap<>();
        int lastCovered = 0;
        for (Map<String, Object> s : sigs) if (s.get("revision") instanceof Integer i) lastCovered = Math.max(lastCovered, i);
        int n = sigs.isEmpty() || lastCovered == 0 ? 0 : file.revs.size() - lastCovered;
        t.put("revisions", n);
        if (n <= 0) return t;
        for (Map<String, Object> s : sigs)
            if (Integer.valueOf(1).equals(s.get("docMdpP"))) file.warnings.add("sig#" + s.get("index") + " has DocMDP P=1 (no changes allowed) but revisions follow it");
        List<String> changed = new ArrayList<>(), disallowed = new ArrayList<>();
        try (PDDocument old = PDDocument.load(Arrays.copyOf(file.file, file.revs.get(lastCovered - 1).end()))) {
            Map<COSObjectKey, Long> ox = old.getDocument().getXrefTable(), nx = doc.getDocument().getXrefTable();
            Set<Long> objStms = new HashSet<>();
            for (Long v : nx.values()) if (v < 0) objStms.add(-v);
            Set<COSObjectKey> dss = new HashSet<>();
            COSDictionary oldCat = old.getDocumentCatalog().getCOSObject(), newCat = doc.getDocumentCatalog().getCOSObject();
            reach(newCat.getItem(COSName.getPDFName("DSS")), dss, Collections.newSetFromMap(new IdentityHashMap<>()));
            for (COSObjectKey k : ox.keySet()) if (!nx.containsKey(k)) disallowed.add(k.getNumber() + " " + k.getGeneration() + " deleted");
            for (Map.Entry<COSObjectKey, Long> e : nx.entrySet()) {
                COSObjectKey k = e.getKey();
                if (e.getValue().equals(ox.get(k))) continue;
                COSBase now = doc.getDocument().getObjectFromPool(k).getObject();
                String type = now instanceof COSDictionary d ? d.getNameAsString(COSName.TYPE) : null;
                String label = k.getNumber() + " " + k.getGeneration() + (type == null ? "" : " (" + type + ")");
                changed.add(label);
                if ("XRef".equals(type) || "ObjStm".equals(type) || objStms.contains(k.getNumber())) continue;
                if (now == newCat) { if (!same(without(oldCat, "DSS"), without(newCat, "DSS"), 0)) disallowed.add(label + ": catalog changed beyond /DSS"); continue; }
                if (dss.contains(k) && !ox.containsKey(k)) continue;
                COSObject was = ox.containsKey(k) ? old.getDocument().getObjectFromPool(k) : null;
                if (was != null && same(was.getObject(), now, 0)) continue;
                disallowed.add(label);
            }
        } catch (Exception e) {
            disallowed.add("cannot compare with revision " + lastCovered + ": " + SignatureCheck.describe(e));
        }
        t.put("changedObjects", changed);
        t.put("dssOnly", disallowed.isEmpty());
        if (disallowed.isEmpty()) file.warnings.add(n + " unsigned revision(s) after the last signature add only validation data (DSS)");
        else if (allow) file.warnings.add(n + " unsigned revision(s) after the last signature change: " + String.join(", ", disallowed) + " (allowed by --allow-unsigned-updates)");
        else file.errors.add("document modified after the last signature: " + n + " unsigned revision(s) change " + String.join(", ", disallowed));
        return t;
    }

    static COSObjectKey key(COSObject o) {
        return new COSObjectKey(o.getObjectNumber(), o.getGenerationNumber());
    }

    static COSDictionary without(COSDictionary d, String key) {
        COSDictionary copy = new COSDictionary(d);
        copy.removeItem(COSName.getPDFName(key));
        return copy;
    }

    static void reach(COSBase b, Set<COSObjectKey> keys, Set<COSBase> seen) {
        if (b == null || !seen.add(b)) return;
        if (b instanceof COSObject o) { keys.add(key(o)); reach(o.getObject(), keys, seen); }
        else if (b instanceof COSArray a) for (COSBase x : a) reach(x, keys, seen);
        else if (b instanceof COSDictionary d) for (COSBase x : d.getValues()) reach(x, keys, seen);
    }

    /** Same content: references compared by object number, direct values by value, streams by their raw bytes. */
    static boolean same(COSBase a, COSBase b, int depth) {
        if (depth > 8) return true;
        if (a instanceof COSObject x && b instanceof COSObject y) return key(x).equals(key(y));
        if (a instanceof COSObject x) a = x.getObject();
        if (b instanceof COSObject y) b = y.getObject();
        if (a == null || b == null) return a == b;
        if (a instanceof COSStream s && b instanceof COSStream t) {
            try (var i = s.createRawInputStream(); var j = t.createRawInputStream()) {
                if (!Arrays.equals(i.readAllBytes(), j.readAllBytes())) return false;
            } catch (Exception e) { return false; }
        }
        if (a instanceof COSDictionary x && b instanceof COSDictionary y) {
            if (!x.keySet().equals(y.keySet())) return false;
            for (COSName k : x.keySet()) if (!same(x.getItem(k), y.getItem(k), depth + 1)) return false;
            return true;
        }
        if (a instanceof COSArray x && b instanceof COSArray y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i), depth + 1)) return false;
            return true;
        }
        return a.equals(b) || a.toString().equals(b.toString());
    }
}
