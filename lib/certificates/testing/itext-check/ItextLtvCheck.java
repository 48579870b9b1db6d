import com.itextpdf.text.pdf.AcroFields;
import com.itextpdf.text.pdf.PdfReader;
import com.itextpdf.text.pdf.security.CertificateVerification;
import com.itextpdf.text.pdf.security.LtvVerification;
import com.itextpdf.text.pdf.security.LtvVerifier;
import com.itextpdf.text.pdf.security.PdfPKCS7;
import com.itextpdf.text.pdf.security.VerificationException;
import com.itextpdf.text.pdf.security.VerificationOK;
import java.io.FileInputStream;
import java.security.KeyStore;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * A third validator for our outputs, iText 5 with BouncyCastle (Debian libitext5-java):
 * usage: ItextLtvCheck FILE.pdf CA.pem...
 * For every signature: CMS integrity, the signature time-stamp's imprint, and the certificate chain
 * against the given anchors at the time-stamp time; then iText's LtvVerifier walks the document
 * (document time-stamp first) with revocation data from the DSS only (no online checks).
 * Prints one line per finding and "itext: PASS" or "itext: FAIL"; exit 0 or 1.
 */
public class ItextLtvCheck {
    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        PdfReader reader = new PdfReader(args[0]);
        KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
        anchors.load(null, null);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        int count = 0;
        for (int i = 1; i < args.length; i++) {
            try (FileInputStream in = new FileInputStream(args[i])) {
                for (Certificate certificate : factory.generateCertificates(in)) anchors.setCertificateEntry("anchor" + count++, certificate);
            }
        }
        boolean ok = true;
        AcroFields fields = reader.getAcroFields();
        List<String> names = fields.getSignatureNames();
        if (names.isEmpty()) ok = false;
        for (String name : names) {
            PdfPKCS7 pkcs7 = fields.verifySignature(name, "BC");
            boolean integrity = pkcs7.verify();
            boolean timestamp = pkcs7.isTsp() || (pkcs7.getTimeStampToken() != null && pkcs7.verifyTimestampImprint());
            Calendar at = pkcs7.getTimeStampDate() != null ? pkcs7.getTimeStampDate() : pkcs7.getSignDate();
            List<VerificationException> errors = CertificateVerification.verifyCertificates(pkcs7.getSignCertificateChain(), anchors, at);
            System.out.println("signature " + name + (pkcs7.isTsp() ? " (document time-stamp)" : "") + ": integrity=" + integrity + " timestamp=" + timestamp + " chain=" + (errors.isEmpty() ? "ok" : errors.toString()));
            if (!integrity || !timestamp || !errors.isEmpty()) ok = false;
        }
        try {
            LtvVerifier verifier = new LtvVerifier(reader);
            verifier.setCertificateOption(LtvVerification.CertificateOption.WHOLE_CHAIN);
            verifier.setRootStore(anchors);
            verifier.setOnlineCheckingAllowed(false);
            verifier.setVerifyRootCertificate(false);
            List<VerificationOK> checked = verifier.verify(new ArrayList<VerificationOK>());
            for (VerificationOK item : checked) System.out.println("ltv: " + item);
            if (checked.isEmpty()) { System.out.println("ltv: nothing verified"); ok = false; }
        } catch (Exception e) {
            System.out.println("ltv: FAIL " + e);
            ok = false;
        }
        System.out.println(ok ? "itext: PASS" : "itext: FAIL");
        System.exit(ok ? 0 : 1);
    }
}
