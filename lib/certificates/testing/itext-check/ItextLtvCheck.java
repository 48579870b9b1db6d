import com.itextpdf.text.pdf.AcroFields;
import com.itextpdf.text.pdf.PRStream;
import com.itextpdf.text.pdf.PdfArray;
import com.itextpdf.text.pdf.PdfDictionary;
import com.itextpdf.text.pdf.PdfName;
import com.itextpdf.text.pdf.PdfReader;
import com.itextpdf.text.pdf.security.CRLVerifier;
import com.itextpdf.text.pdf.security.CertificateVerification;
import com.itextpdf.text.pdf.security.EncryptionAlgorithms;
import com.itextpdf.text.pdf.security.PdfPKCS7;
import com.itextpdf.text.pdf.security.VerificationException;
import com.itextpdf.text.pdf.security.VerificationOK;
import java.io.FileInputStream;
import java.security.KeyStore;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * A third validator for our outputs, iText 5 with BouncyCastle (Debian libitext5-java):
 * usage: ItextLtvCheck FILE.pdf CA.pem...
 * For every signature: CMS integrity (PdfPKCS7.verify), the signature time-stamp's imprint, the
 * certificate chain against the anchors at the time-stamp time (CertificateVerification; for the
 * document time-stamp, verifyTimestampCertificates), and revocation of every certificate below the
 * anchor with iText's CRLVerifier over the DSS CRLs only (no online fetching) at that time.
 * Prints one line per signature and "itext: PASS" or "itext: FAIL"; exit 0 or 1.
 */
public class ItextLtvCheck {
    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        // iText 5.5.13 maps only the key OID (id-ecPublicKey) to ECDSA; CMS (RFC 5753/5754) names the
        // signature algorithm ecdsa-with-SHA256 in SignerInfo, which it does not know yet
        EncryptionAlgorithms.addAlgorithm("1.2.840.10045.4.3.2", "ECDSA");
        PdfReader reader = new PdfReader(args[0]);
        KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
        anchors.load(null, null);
        List<X509Certificate> pool = new ArrayList<>();
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        int count = 0;
        for (int i = 1; i < args.length; i++) {
            try (FileInputStream in = new FileInputStream(args[i])) {
                for (Certificate certificate : factory.generateCertificates(in)) {
                    anchors.setCertificateEntry("anchor" + count++, certificate);
                    pool.add((X509Certificate) certificate);
                }
            }
        }
        List<X509CRL> crls = dssCrls(reader);
        boolean ok = true;
        AcroFields fields = reader.getAcroFields();
        List<String> names = fields.getSignatureNames();
        if (names.isEmpty()) ok = false;
        for (String name : names) {
            PdfPKCS7 pkcs7 = fields.verifySignature(name, "BC");
            boolean integrity = pkcs7.verify();
            boolean timestamp = pkcs7.isTsp() || (pkcs7.getTimeStampToken() != null && pkcs7.verifyTimestampImprint());
            Calendar at = pkcs7.getTimeStampDate() != null ? pkcs7.getTimeStampDate() : pkcs7.getSignDate();
            Certificate[] chain = pkcs7.getSignCertificateChain();
            String chainResult;
            if (pkcs7.isTsp()) {
                chainResult = CertificateVerification.verifyTimestampCertificates(pkcs7.getTimeStampToken(), anchors, "BC") ? "ok" : "TSA certificate not trusted";
            } else {
                List<VerificationException> errors = CertificateVerification.verifyCertificates(chain, anchors, at);
                chainResult = errors.isEmpty() ? "ok" : errors.toString();
            }
            String revocation = revocationOf(chain, pool, crls, at.getTime());
            System.out.println("signature " + name + (pkcs7.isTsp() ? " (document time-stamp)" : "") + ": integrity=" + integrity + " timestamp=" + timestamp + " chain=" + chainResult + " revocation=" + revocation);
            if (!integrity || !timestamp || !chainResult.equals("ok") || !revocation.equals("ok")) ok = false;
        }
        System.out.println(ok ? "itext: PASS" : "itext: FAIL");
        System.exit(ok ? 0 : 1);
    }

    /** The CRLs of the document's DSS (iText's LtvVerifier reads them only when the last signature covers the whole file). */
    static List<X509CRL> dssCrls(PdfReader reader) throws Exception {
        List<X509CRL> crls = new ArrayList<>();
        PdfDictionary dss = reader.getCatalog().getAsDict(PdfName.DSS);
        PdfArray array = dss == null ? null : dss.getAsArray(PdfName.CRLS);
        if (array == null) return crls;
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        for (int i = 0; i < array.size(); i++) {
            PRStream stream = (PRStream) array.getAsStream(i);
            crls.add((X509CRL) factory.generateCRL(new java.io.ByteArrayInputStream(PdfReader.getStreamBytes(stream))));
        }
        return crls;
    }

    /** Every certificate of the chain below the anchor must be cleared by a DSS CRL of its issuer at `at`. */
    static String revocationOf(Certificate[] chain, List<X509Certificate> anchors, List<X509CRL> crls, Date at) throws Exception {
        List<X509Certificate> path = new ArrayList<>();
        for (Certificate c : chain) path.add((X509Certificate) c);
        X509Certificate last = path.get(path.size() - 1);
        // complete the path up to an anchor (the CMS leaves the root out)
        while (!last.getSubjectX500Principal().equals(last.getIssuerX500Principal())) {
            X509Certificate issuer = null;
            for (X509Certificate anchor : anchors) if (anchor.getSubjectX500Principal().equals(last.getIssuerX500Principal())) issuer = anchor;
            if (issuer == null || path.contains(issuer)) break;
            path.add(issuer);
            last = issuer;
        }
        for (int i = 0; i + 1 < path.size(); i++) {
            X509Certificate certificate = path.get(i);
            X509Certificate issuer = path.get(i + 1);
            if (certificate.getSubjectX500Principal().equals(certificate.getIssuerX500Principal())) break;
            CRLVerifier verifier = new CRLVerifier(null, crls);
            verifier.setOnlineCheckingAllowed(false);
            List<VerificationOK> found = verifier.verify(certificate, issuer, at);
            if (found.isEmpty()) {
                StringBuilder why = new StringBuilder("no CRL for " + certificate.getSubjectX500Principal() + " at " + at.toInstant());
                for (X509CRL crl : crls) why.append(" [" + crl.getIssuerX500Principal() + " " + crl.getThisUpdate().toInstant() + ".." + crl.getNextUpdate().toInstant() + " verify=" + verifier.verify(crl, certificate, issuer, at) + "]");
                return why.toString();
            }
        }
        return "ok";
    }
}
