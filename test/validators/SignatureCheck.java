import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Security;
import java.security.cert.*;
import java.util.*;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.cos.*;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.apache.pdfbox.pdmodel.interactive.form.PDSignatureField;
import org.bouncycastle.asn1.*;
import org.bouncycastle.asn1.cms.AttributeTable;
import org.bouncycastle.asn1.ess.*;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cms.*;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.DefaultAlgorithmNameFinder;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.util.Store;

/**
 * The repository's own PDFBox + BouncyCastle view of a signed PDF, for test/validators/validate-pdf.mjs.
 * Usage: SignatureCheck FILE.pdf [--ca PEM]... [--dump DIR] [--allow-unsigned] [--allow-unsigned-updates]
 * Prints one JSON object; exit 0 valid, 1 invalid. Each RFC 3161 token goes to DIR/sigN.tst.der with the
 * bytes it stamps in DIR/sigN.tst.data, so openssl ts -verify judges it again on its own.
 */
public class SignatureCheck {
    record Rev(int end, long startxref) {}

    final byte[] file;
    final List<Rev> revs = new ArrayList<>();
    final List<String> errors = new ArrayList<>(), warnings = new ArrayList<>();
    final List<X509Certificate> anchors = new ArrayList<>(), pool = new ArrayList<>();
    final CertificateFactory cf;
    Path dump;

    SignatureCheck(byte[] file) throws Exception {
        this.file = file;
        this.cf = CertificateFactory.getInstance("X.509");
    }

    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        SignatureCheck c = new SignatureCheck(Files.readAllBytes(Path.of(args[0])));
        boolean allowUnsigned = false, allowUpdates = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--ca" -> { for (Certificate x : c.cf.generateCertificates(Files.newInputStream(Path.of(args[++i])))) c.anchors.add((X509Certificate) x); }
                case "--dump" -> { c.dump = Path.of(args[++i]); Files.createDirectories(c.dump); }
                case "--allow-unsigned" -> allowUnsigned = true;
                case "--allow-unsigned-updates" -> allowUpdates = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Map<String, Object> out = c.run(allowUnsigned, allowUpdates);
        new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, java.nio.charset.StandardCharsets.UTF_8).println(Json.write(out));
        System.exit(c.errors.isEmpty() ? 0 : 1);
    }

    Map<String, Object> run(boolean allowUnsigned, boolean allowUpdates) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("size", file.length);
        findRevisions();
        out.put("revisions", revs.size());
        List<Map<String, Object>> sigs = new ArrayList<>();
        Map<String, Object> dss = new LinkedHashMap<>(Map.of("present", false));
        Map<String, Object> tail = new LinkedHashMap<>();
        try (PDDocument doc = PDDocument.load(file)) {
            dss = readDss(doc);
            Map<COSDictionary, String> names = new IdentityHashMap<>();
            for (PDSignatureField f : doc.getSignatureFields())
                if (f.getSignature() != null) names.put(f.getSignature().getCOSObject(), f.getFullyQualifiedName());
            List<PDSignature> found = new ArrayList<>(doc.getSignatureDictionaries());
            found.sort(Comparator.comparingLong(s -> { int[] b = s.getByteRange(); return b.length == 4 ? (long) b[2] + b[3] : Long.MAX_VALUE; }));
            for (PDSignature s : found) sigs.add(new SignatureView(this, sigs.size() + 1, s, names.getOrDefault(s.getCOSObject(), "?")).check());
            orphans(doc, found);
            checkVri(doc, dss, found);
            tail = new UnsignedTail(this, doc).check(sigs, allowUpdates);
        } catch (Exception e) {
            errors.add("PDFBox cannot parse the file: " + describe(e));
        }
        if (sigs.isEmpty() && !allowUnsigned) errors.add("no signatures");
        if (dump != null) writePool();
        out.put("signatures", sigs);
        out.put("dss", dss);
        out.put("unsignedTail", tail);
        out.put("verdict", errors.isEmpty() ? "valid" : "invalid");
        out.put("errors", errors);
        out.put("warnings", warnings);
        return out;
    }

    /** Each revision ends after "startxref N %%EOF" and its end of line; nothing may follow the last one. */
    void findRevisions() {
        String text = new String(file, java.nio.charset.StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile("startxref\\s+(\\d+)\\s+%%EOF").matcher(text);
        while (m.find()) {
            int end = m.end();
            if (end < file.length && file[end] == '\r') end++;
            if (end < file.length && file[end] == '\n') end++;
            long sx = Long.parseLong(m.group(1));
            revs.add(new Rev(end, sx));
            if (sx != 0 && !pointsAtXref(text, sx)) errors.add("startxref " + sx + " does not point to an xref");
        }
        if (revs.isEmpty()) { errors.add("no startxref ... %%EOF found"); return; }
        int last = revs.get(revs.size() - 1).end(), extra = 0;
        for (int i = last; i < file.length; i++) if (!Character.isWhitespace(file[i]) && file[i] != 0) extra++;
        if (extra > 0) errors.add(extra + " byte(s) after the last %%EOF are not part of any revision");
    }

    static boolean pointsAtXref(String text, long offset) {
        if (offset >= text.length()) return false;
        String at = text.substring((int) offset, (int) Math.min(text.length(), offset + 40));
        return at.startsWith("xref") || at.matches("(?s)\\s*\\d+\\s+\\d+\\s+obj.*");
    }

    /** The 1-based revision whose end is `end`, or 0. A writer may or may not sign the final end of line. */
    int revisionEndingAt(long end) {
        for (int i = 0; i < revs.size(); i++) {
            int e = revs.get(i).end();
            if (end == e) return i + 1;
            int bare = e;
            while (bare > 0 && (file[bare - 1] == '\n' || file[bare - 1] == '\r')) bare--;
            if (end >= bare && end <= e) return i + 1;
        }
        return 0;
    }

    /** Every /ByteRange written in the file must belong to a signature a reader reaches from the AcroForm. */
    void orphans(PDDocument doc, List<PDSignature> found) {
        Set<String> known = new HashSet<>();
        for (PDSignature s : found) known.add(Arrays.toString(s.getByteRange()));
        String usageRights = null;
        COSBase perms = doc.getDocumentCatalog().getCOSObject().getDictionaryObject(COSName.PERMS);
        if (perms instanceof COSDictionary p && p.getDictionaryObject(COSName.getPDFName("UR3")) instanceof COSDictionary ur
                && ur.getDictionaryObject(COSName.BYTERANGE) instanceof COSArray a) usageRights = Arrays.toString(ints(a));
        String text = new String(file, java.nio.charset.StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile("/ByteRange\\s*\\[\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s*\\]").matcher(text);
        while (m.find()) {
            String range = Arrays.toString(new int[] { Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)) });
            if (known.contains(range)) continue;
            String what = "signature dictionary at offset " + m.start() + " (ByteRange " + range + ")";
            if (range.equals(usageRights)) warnings.add(what + " is a usage-rights (/Perms /UR3) signature, not a field");
            else errors.add(what + " is not reachable from the AcroForm fields (orphaned signature)");
        }
    }

    static int[] ints(COSArray a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = a.getObject(i) instanceof COSNumber n ? n.intValue() : -1;
        return out;
    }

    Map<String, Object> readDss(PDDocument doc) {
        Map<String, Object> d = new LinkedHashMap<>();
        COSBase b = doc.getDocumentCatalog().getCOSObject().getDictionaryObject(COSName.getPDFName("DSS"));
        d.put("present", b instanceof COSDictionary);
        if (!(b instanceof COSDictionary dss)) return d;
        d.put("certs", eachStream(dss, "Certs", "DSS /Certs", bytes -> pool.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(bytes)))));
        d.put("crls", eachStream(dss, "CRLs", "DSS /CRLs", bytes -> cf.generateCRL(new ByteArrayInputStream(bytes))));
        d.put("ocsps", eachStream(dss, "OCSPs", "DSS /OCSPs", OCSPResp::new));
        d.put("vri", dss.getDictionaryObject(COSName.getPDFName("VRI")) instanceof COSDictionary v ? v.size() : 0);
        return d;
    }

    interface BytesCheck { void accept(byte[] b) throws Exception; }

    int eachStream(COSDictionary dict, String key, String label, BytesCheck check) {
        COSBase a = dict.getDictionaryObject(COSName.getPDFName(key));
        if (a == null) return 0;
        if (!(a instanceof COSArray arr)) { errors.add(label + " is not an array"); return 0; }
        for (int i = 0; i < arr.size(); i++) {
            try { check.accept(streamBytes(arr.getObject(i))); }
            catch (Exception e) { errors.add(label + "[" + i + "] cannot be parsed: " + describe(e)); }
        }
        return arr.size();
    }

    static byte[] streamBytes(COSBase b) throws Exception {
        if (!(b instanceof COSStream s)) throw new IllegalArgumentException("not a stream");
        try (var in = s.createInputStream()) { return in.readAllBytes(); }
    }

    /**
     * VRI keys are the upper-case hex SHA-1 of a signature's /Contents (padding hashed or not); each must
     * name a signature of this file, and what a VRI entry lists must be in the DSS arrays themselves.
     */
    void checkVri(PDDocument doc, Map<String, Object> dss, List<PDSignature> found) throws Exception {
        if (!(doc.getDocumentCatalog().getCOSObject().getDictionaryObject(COSName.getPDFName("DSS")) instanceof COSDictionary dssDict)) return;
        if (!(dssDict.getDictionaryObject(COSName.getPDFName("VRI")) instanceof COSDictionary vri)) return;
        Map<String, Integer> keys = new HashMap<>();
        for (PDSignature s : found) {
            byte[] c = s.getContents(file);
            keys.put(hex(MessageDigest.getInstance("SHA-1").digest(c)), 1);
            keys.put(hex(MessageDigest.getInstance("SHA-1").digest(trimDer(c))), 1);
        }
        int matching = 0;
        for (COSName key : vri.keySet()) {
            String k = key.getName();
            if (!k.matches("[0-9A-F]{40}")) { errors.add("DSS /VRI key " + k + " is not an upper-case hex SHA-1"); continue; }
            if (keys.containsKey(k)) matching++; else errors.add("DSS /VRI key " + k + " names no signature of this file");
            if (!(vri.getDictionaryObject(key) instanceof COSDictionary entry)) { errors.add("DSS /VRI " + k + " is not a dictionary"); continue; }
            for (String[] pair : new String[][] { { "Cert", "Certs" }, { "CRL", "CRLs" }, { "OCSP", "OCSPs" } }) {
                Set<String> listed = digests(dssDict.getDictionaryObject(COSName.getPDFName(pair[1])));
                if (!(entry.getDictionaryObject(COSName.getPDFName(pair[0])) instanceof COSArray arr)) continue;
                for (int i = 0; i < arr.size(); i++) {
                    try {
                        if (!listed.contains(hex(MessageDigest.getInstance("SHA-256").digest(streamBytes(arr.getObject(i))))))
                            errors.add("DSS /VRI " + k + " /" + pair[0] + "[" + i + "] is not in the DSS /" + pair[1]);
                    } catch (Exception e) { errors.add("DSS /VRI " + k + " /" + pair[0] + "[" + i + "] cannot be read: " + describe(e)); }
                }
            }
        }
        dss.put("vriMatchingSignatures", matching);
    }

    Set<String> digests(COSBase a) {
        Set<String> out = new HashSet<>();
        if (a instanceof COSArray arr)
            for (int i = 0; i < arr.size(); i++)
                try { out.add(hex(MessageDigest.getInstance("SHA-256").digest(streamBytes(arr.getObject(i))))); } catch (Exception ignored) { }
        return out;
    }

    /** PKIX path from `cert` to one of the anchors at the current time, without revocation. */
    String chain(X509Certificate cert) {
        if (anchors.isEmpty()) return "no-anchor";
        for (X509Certificate a : anchors) if (a.equals(cert)) return checkValidity(cert);
        try {
            Set<TrustAnchor> ta = new HashSet<>();
            for (X509Certificate a : anchors) ta.add(new TrustAnchor(a, null));
            X509CertSelector target = new X509CertSelector();
            target.setCertificate(cert);
            PKIXBuilderParameters p = new PKIXBuilderParameters(ta, target);
            p.setRevocationEnabled(false);
            List<X509Certificate> all = new ArrayList<>(pool);
            all.add(cert);
            p.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(all)));
            CertPathBuilder.getInstance("PKIX").build(p);
            return "true";
        } catch (Exception e) {
            return "false: " + describe(e);
        }
    }

    static String checkValidity(X509Certificate c) {
        try { c.checkValidity(); return "true"; } catch (Exception e) { return "false: " + describe(e); }
    }

    X509Certificate toX509(X509CertificateHolder h) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(h);
    }

    void addToPool(Store<X509CertificateHolder> store) throws Exception {
        for (X509CertificateHolder h : store.getMatches(null)) pool.add(toX509(h));
    }

    void writePool() {
        StringBuilder pem = new StringBuilder();
        Base64.Encoder b64 = Base64.getMimeEncoder(64, "\n".getBytes());
        for (X509Certificate c : pool)
            try { pem.append("-----BEGIN CERTIFICATE-----\n").append(b64.encodeToString(c.getEncoded())).append("\n-----END CERTIFICATE-----\n"); } catch (Exception ignored) { }
        try { Files.writeString(dump.resolve("certs.pem"), pem.toString()); } catch (Exception ignored) { }
    }

    void dumpToken(int index, byte[] token, byte[] data) {
        if (dump == null) return;
        try {
            Files.write(dump.resolve("sig" + index + ".tst.der"), token);
            Files.write(dump.resolve("sig" + index + ".tst.data"), data);
        } catch (Exception e) { errors.add("cannot write the token of signature " + index + ": " + describe(e)); }
    }

    /** The DER object at the start of a /Contents, without the zero padding after it. */
    static byte[] trimDer(byte[] c) {
        if (c.length < 2 || (c[1] & 0xff) == 0x80) return c; // indefinite length (BER): the parser stops at its end itself
        int len = c[1] & 0xff, head = 2;
        if ((len & 0x80) != 0) {
            int n = len & 0x7f;
            len = 0;
            for (int i = 0; i < n && 2 + i < c.length; i++) len = (len << 8) | (c[2 + i] & 0xff);
            head = 2 + n;
        }
        return Arrays.copyOf(c, Math.min(c.length, head + len));
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02X", x));
        return s.toString();
    }

    static byte[] digest(ASN1ObjectIdentifier alg, byte[] data) throws Exception {
        return MessageDigest.getInstance(new DefaultAlgorithmNameFinder().getAlgorithmName(alg), "BC").digest(data);
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return (e.getClass().getSimpleName() + (m == null ? "" : ": " + m)).replaceAll("\\s+", " ");
    }
}
