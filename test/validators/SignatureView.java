import java.security.cert.X509Certificate;
import java.util.*;
import org.apache.pdfbox.cos.*;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.bouncycastle.asn1.*;
import org.bouncycastle.asn1.cms.Attribute;
import org.bouncycastle.asn1.cms.AttributeTable;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.ess.*;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.oiw.OIWObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cms.*;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.tsp.TimeStampToken;

/** One signature or document time-stamp, checked on its own: range, gap, digest, CMS, ESS, chain, token. */
class SignatureView {
    final SignatureCheck file;
    final int index;
    final PDSignature sig;
    final String field;
    final List<String> errs = new ArrayList<>();
    final Map<String, Object> out = new LinkedHashMap<>();

    SignatureView(SignatureCheck file, int index, PDSignature sig, String field) {
        this.file = file;
        this.index = index;
        this.sig = sig;
        this.field = field;
    }

    Map<String, Object> check() {
        String subFilter = sig.getSubFilter() == null ? "-" : sig.getSubFilter();
        boolean docTimestamp = "ETSI.RFC3161".equals(subFilter);
        out.put("index", index);
        out.put("field", field);
        out.put("type", docTimestamp ? "doc-timestamp" : "signature");
        out.put("subFilter", subFilter);
        int[] br = sig.getByteRange();
        out.put("byteRange", br);
        for (String k : List.of("coversRevision", "gapExact", "digest", "cms")) out.put(k, false);
        out.put("chain", "-");
        out.put("timestamp", "-");
        out.put("signer", "-");
        out.put("docMdpP", docMdp());
        try {
            byte[] content = signedBytes(br);
            byte[] contents = SignatureCheck.trimDer(sig.getContents(file.file));
            if (docTimestamp) checkDocTimestamp(contents, content); else checkCms(contents, content, subFilter);
        } catch (Exception e) {
            errs.add("the signature cannot be read: " + SignatureCheck.describe(e));
        }
        String prefix = "sig#" + index + " (" + field + "): ";
        for (String e : errs) file.errors.add(prefix + e);
        out.put("valid", errs.isEmpty());
        out.put("firstError", errs.isEmpty() ? "-" : errs.get(0));
        return out;
    }

    /** The signed bytes, after checking the range's shape, its end and the gap it leaves. */
    byte[] signedBytes(int[] br) throws java.io.IOException {
        byte[] f = file.file;
        if (br.length != 4 || br[0] != 0 || br[1] <= 0 || br[2] <= br[1] || br[3] < 0 || (long) br[2] + br[3] > f.length)
            throw new IllegalArgumentException("/ByteRange " + Arrays.toString(br) + " is not [0 a b c] inside the file");
        long end = (long) br[2] + br[3];
        int rev = file.revisionEndingAt(end);
        out.put("revision", rev == 0 ? null : rev);
        out.put("coversRevision", rev != 0);
        if (rev == 0) errs.add("signed range ends at " + end + ", not at the end of a revision");
        boolean gap = f[br[1]] == '<' && f[br[2] - 1] == '>';
        for (int i = br[1] + 1; gap && i < br[2] - 1; i++) gap = Character.digit(f[i], 16) >= 0;
        if (gap) {
            byte[] inGap = HexFormat.of().parseHex(new String(f, br[1] + 1, br[2] - br[1] - 2, java.nio.charset.StandardCharsets.ISO_8859_1));
            gap = Arrays.equals(inGap, sig.getContents(f));
        }
        out.put("gapExact", gap);
        if (!gap) errs.add("the ByteRange gap " + br[1] + ".." + br[2] + " is not exactly one hex string: this signature's /Contents");
        byte[] content = new byte[br[1] + br[3]];
        System.arraycopy(f, 0, content, 0, br[1]);
        System.arraycopy(f, br[2], content, br[1], br[3]);
        return content;
    }

    void checkCms(byte[] contents, byte[] content, String subFilter) throws Exception {
        boolean sha1 = "adbe.pkcs7.sha1".equals(subFilter);
        CMSSignedData cms = sha1 ? new CMSSignedData(contents) : new CMSSignedData(new CMSProcessableByteArray(content), contents);
        if (!sha1 && cms.getSignedContent() != null && !(cms.getSignedContent() instanceof CMSProcessableByteArray)) errs.add("the CMS is not detached");
        file.addToPool(cms.getCertificates());
        Collection<SignerInformation> signers = cms.getSignerInfos().getSigners();
        if (signers.size() != 1) { errs.add(signers.size() + " SignerInfos, not exactly one"); if (signers.isEmpty()) return; }
        SignerInformation si = signers.iterator().next();
        @SuppressWarnings("unchecked")
        Collection<X509CertificateHolder> matches = cms.getCertificates().getMatches(si.getSID());
        if (matches.isEmpty()) { errs.add("the signer certificate is not in the CMS"); return; }
        X509CertificateHolder holder = matches.iterator().next();
        X509Certificate cert = file.toX509(holder);
        // RFC 4519 names (serialNumber=, givenName=) as pdfsig and people write them, not OIDs in hex
        out.put("signer", new org.bouncycastle.asn1.x500.X500Name(org.bouncycastle.asn1.x500.style.RFC4519Style.INSTANCE,
                org.bouncycastle.asn1.x500.X500Name.getInstance(cert.getSubjectX500Principal().getEncoded()).getRDNs()).toString());

        byte[] signedData = content;
        if (sha1) {
            byte[] inner = (byte[]) cms.getSignedContent().getContent();
            if (!Arrays.equals(ASN1OctetString.getInstance(inner).getOctets(), SignatureCheck.digest(OIWObjectIdentifiers.idSHA1, content)))
                errs.add("Digest mismatch: the encapsulated SHA-1 is not the digest of the signed bytes");
            signedData = inner;
        }
        AttributeTable signed = si.getSignedAttributes();
        Attribute md = signed == null ? null : signed.get(CMSAttributes.messageDigest);
        boolean digestOk = md != null && Arrays.equals(ASN1OctetString.getInstance(md.getAttrValues().getObjectAt(0)).getOctets(),
                SignatureCheck.digest(si.getDigestAlgorithmID().getAlgorithm(), signedData));
        out.put("digest", digestOk);
        if (!digestOk) errs.add(md == null ? "no messageDigest signed attribute" : "Digest mismatch: the signed bytes' digest is not the CMS messageDigest");
        boolean verified;
        try { verified = si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(holder)); }
        catch (CMSSignerDigestMismatchException e) { verified = false; }
        catch (Exception e) { verified = false; errs.add("CMS signature cannot be verified: " + SignatureCheck.describe(e)); }
        out.put("cms", verified);
        if (!verified) errs.add("the CMS signature does not verify with the signer certificate");

        checkEss(signed, cert, "ETSI.CAdES.detached".equals(subFilter));
        judgeChain("signer", cert);
        Attribute ts = si.getUnsignedAttributes() == null ? null : si.getUnsignedAttributes().get(PKCSObjectIdentifiers.id_aa_signatureTimeStampToken);
        if (ts != null) out.put("timestamp", checkToken(ts.getAttrValues().getObjectAt(0).toASN1Primitive().getEncoded(ASN1Encoding.DER), si.getSignature(), "signature timestamp"));
    }

    /** An ESS signing-certificate(-v2) attribute must name the certificate that signed; PAdES requires v2. */
    void checkEss(AttributeTable signed, X509Certificate cert, boolean pades) throws Exception {
        Attribute v2 = signed == null ? null : signed.get(PKCSObjectIdentifiers.id_aa_signingCertificateV2);
        Attribute v1 = signed == null ? null : signed.get(PKCSObjectIdentifiers.id_aa_signingCertificate);
        if (v2 != null) {
            ESSCertIDv2 id = SigningCertificateV2.getInstance(v2.getAttrValues().getObjectAt(0)).getCerts()[0];
            ASN1ObjectIdentifier alg = id.getHashAlgorithm() == null ? NISTObjectIdentifiers.id_sha256 : id.getHashAlgorithm().getAlgorithm();
            if (!Arrays.equals(id.getCertHash(), SignatureCheck.digest(alg, cert.getEncoded()))) errs.add("ESS signing-certificate-v2 names another certificate than the signer's");
            checkIssuerSerial(id.getIssuerSerial(), cert);
        } else if (v1 != null) {
            ESSCertID id = SigningCertificate.getInstance(v1.getAttrValues().getObjectAt(0)).getCerts()[0];
            if (!Arrays.equals(id.getCertHash(), SignatureCheck.digest(OIWObjectIdentifiers.idSHA1, cert.getEncoded()))) errs.add("ESS signing-certificate names another certificate than the signer's");
            checkIssuerSerial(id.getIssuerSerial(), cert);
        }
        if (pades && v2 == null) errs.add("ETSI.CAdES.detached requires an ESS signing-certificate-v2 signed attribute");
    }

    void checkIssuerSerial(org.bouncycastle.asn1.x509.IssuerSerial is, X509Certificate cert) {
        if (is == null) return;
        if (!is.getSerial().getValue().equals(cert.getSerialNumber())) errs.add("ESS issuerSerial names another serial number than the signer's");
        GeneralName[] names = is.getIssuer().getNames();
        if (names.length > 0 && names[0].getTagNo() == GeneralName.directoryName
                && !org.bouncycastle.asn1.x500.X500Name.getInstance(names[0].getName()).equals(org.bouncycastle.asn1.x500.X500Name.getInstance(cert.getIssuerX500Principal().getEncoded())))
            errs.add("ESS issuerSerial names another issuer than the signer's");
    }

    void checkDocTimestamp(byte[] contents, byte[] content) {
        out.put("digest", true);
        out.put("cms", true);
        String verdict = checkToken(contents, content, "document timestamp");
        out.put("timestamp", verdict);
        if (!"ok".equals(verdict)) { out.put("digest", !verdict.contains("imprint")); out.put("cms", !verdict.contains("token")); }
    }

    /** Imprint over `stamped`, the token's own signature, its ESS certificate id and EKU, and its TSA chain. */
    String checkToken(byte[] der, byte[] stamped, String what) {
        file.dumpToken(index, der, stamped);
        List<String> before = new ArrayList<>(errs);
        try {
            TimeStampToken token = new TimeStampToken(new CMSSignedData(der));
            file.addToPool(token.getCertificates());
            if (!Arrays.equals(token.getTimeStampInfo().getMessageImprintDigest(), SignatureCheck.digest(token.getTimeStampInfo().getMessageImprintAlgOID(), stamped)))
                errs.add(what + ": the imprint is not the digest of the bytes it should stamp");
            @SuppressWarnings("unchecked")
            Collection<X509CertificateHolder> tsa = token.getCertificates().getMatches(token.getSID());
            X509Certificate cert = null;
            if (!tsa.isEmpty()) cert = file.toX509(tsa.iterator().next());
            else for (X509Certificate c : file.pool) if (token.getSID().match(new X509CertificateHolder(c.getEncoded()))) cert = c;
            if (cert == null) { errs.add(what + ": TSA certificate not found in the token or the DSS"); return "INVALID"; }
            try { token.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(cert)); }
            catch (Exception e) { errs.add(what + ": the token does not verify: " + SignatureCheck.describe(e)); }
            judgeChain(what + " TSA", cert);
        } catch (Exception e) {
            errs.add(what + ": the token cannot be read: " + SignatureCheck.describe(e));
        }
        return errs.size() == before.size() ? "ok" : "INVALID";
    }

    void judgeChain(String who, X509Certificate cert) {
        String chain = file.chain(cert);
        if (!"signer".equals(who) && "true".equals(chain)) return;
        if ("signer".equals(who)) out.put("chain", chain.startsWith("false") ? "false" : chain);
        if (chain.startsWith("false")) errs.add(who + " chain is not trusted by the given anchors (" + chain.substring(7) + ")");
    }

    Integer docMdp() {
        if (!(sig.getCOSObject().getDictionaryObject(COSName.getPDFName("Reference")) instanceof COSArray refs)) return null;
        for (int i = 0; i < refs.size(); i++)
            if (refs.getObject(i) instanceof COSDictionary ref && "DocMDP".equals(ref.getNameAsString(COSName.getPDFName("TransformMethod"))))
                return ref.getDictionaryObject(COSName.getPDFName("TransformParams")) instanceof COSDictionary p ? p.getInt(COSName.P, 2) : 2;
        return null;
    }
}
