#!/usr/bin/env bash
# A curl walk-through of every stamp-signing API operation against a running server, printing each
# command and its real answer (long Base64 fields shortened). Its output is committed as
# docs/walkthrough/stamp-api.md. Usage:
#   BASE=http://localhost:3000 EMAIL=admin@demo.local PASSWORD=... docs/walkthrough/stamp-api.sh
set -euo pipefail
BASE=${BASE:-http://localhost:3000}
EMAIL=${EMAIL:-admin@demo.local}
PASSWORD=${PASSWORD:?set PASSWORD to the admin password}
FIXTURES=$(cd "$(dirname "$0")/../../test/fixtures" && pwd)
PDF=$FIXTURES/pdfs/valid/libreoffice74-contrato-a4.pdf
IMAGE=$FIXTURES/images/portrait-413x531.jpg
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

shorten() { sed -E 's/"(signed_pdf|tsr_file|token)":"([^"]{24})[^"]*"/"\1":"\2…"/g'; }
step() { printf '\n### %s\n\n```\n' "$1"; }
run() { printf '$ %s\n' "$*"; { eval "$@" || true; } | shorten; printf '\n'; }
end() { printf '```\n'; }

step "Health"
run "curl -s $BASE/api/health"
end

step "Token v2 and v3 (a new token supersedes the previous one of the same version)"
V2=$(curl -s -X POST "$BASE/api/auth/token" -H 'Content-Type: application/json' -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}")
printf '$ curl -s -X POST %s/api/auth/token -H "Content-Type: application/json" -d {"email":"%s","password":"$PASSWORD"}\n%s\n' "$BASE" "$EMAIL" "$V2" | shorten
TOKEN=$(node -e 'console.log(JSON.parse(process.argv[1]).data.token)' "$V2")
V3=$(curl -s -X POST "$BASE/api/v3/auth/token" -H 'Content-Type: application/json' -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}")
printf '$ curl -s -X POST %s/api/v3/auth/token … (same body)\n%s\n' "$BASE" "$V3" | shorten
TOKEN3=$(node -e 'console.log(JSON.parse(process.argv[1]).token)' "$V3")
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v3/auth/token -H 'Content-Type: application/json' -d '{\"email\":\"$EMAIL\",\"password\":\"wrong\"}'"
end

AUTH="-H \"Authorization: Bearer \$TOKEN\""
TX1=SYNC$(date +%s%N | tail -c 17)
step "signPDF v2, sync, agente, image + signer data + QR auto on page 1"
run "curl -s -X POST $BASE/api/v2/signPDF $AUTH -F tx_token=$TX1 -F pdf_file=@$PDF -F image=@$IMAGE -F page=1 -F position_x=300 -F position_y=80 -F names='José Ñúñez' -F last_names='Pérez Güemes' -F person_id=12345678 -F qr_type=auto -F sign_type=agente"
end

step "signPDF v3, binary_resp=1, then checked by qpdf and pdfsig"
run "curl -s -D - -o $WORK/signed.pdf -X POST $BASE/api/v3/signPDF -H \"Authorization: Bearer \$TOKEN3\" -F pdf_file=@$PDF -F binary_resp=1 | grep -iE '^(HTTP|content-type|content-disposition)'"
run "qpdf --check $WORK/signed.pdf | tail -2"
run "pdfsig -nocert $WORK/signed.pdf | grep -E 'Signature #|Signer Certificate Common Name|Signature Validation|Signature Type'"
end

TX=WALK$(date +%s%N | tail -c 17)
step "signPDF async with a client tx_token, then getSignedPDF"
run "curl -s -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F async=1 -F tx_token=$TX"
run "curl -s -w ' HTTP %{http_code}' '$BASE/api/v2/getSignedPDF?tx_token=$TX' $AUTH"
sleep 3
run "curl -s -w ' HTTP %{http_code}' '$BASE/api/v2/getSignedPDF?tx_token=$TX' $AUTH"
run "curl -s -o /dev/null -w '%{http_code} %{content_type}' '$BASE/api/v2/getSignedPDF?tx_token=$TX&binary_resp=1' $AUTH"
end

step "Errors: a reused tx_token, a page that does not exist, a landscape image, no token"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F tx_token=$TX"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F image=@$IMAGE -F page=9 -F names=Ana -F last_names=Rojas -F person_id=87654321"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F image=@$FIXTURES/images/landscape-910x600.jpg -F page=1 -F names=Ana -F last_names=Rojas -F person_id=87654321"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signPDF -F pdf_file=@$PDF"
end

step "otp, and page 0 (a page appended for the stamp)"
run "curl -s -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F image=@$IMAGE -F page=0 -F sign_type=otp -F email=firmante@example.com -F names=Ana -F last_names=Rojas -F person_id=87654321 -F binary_resp=1 -o $WORK/otp.pdf -w 'HTTP %{http_code}'"
run "pdfinfo $WORK/otp.pdf | grep Pages; pdfinfo $PDF | grep Pages"
end

USER=walk$(date +%s)
step "digital: enrol a certificate holder (built-in CA), sign with PIN, wrong PIN"
run "curl -s -X POST $BASE/api/v2/certificateHolders $AUTH -F sign_username=$USER -F sign_password=Clave-Segura-1 -F sign_pin=4321 -F source=built-in -F names=Ana -F last_names='Rojas Díaz' -F person_id=87654321"
run "curl -s -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F sign_type=digital -F sign_username=$USER -F sign_password=Clave-Segura-1 -F sign_pin=4321 -F binary_resp=1 -o $WORK/digital.pdf -w 'HTTP %{http_code}'"
run "pdfsig -nocert $WORK/digital.pdf | grep -E 'Common Name|Signature Validation'"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signPDF $AUTH -F pdf_file=@$PDF -F sign_type=digital -F sign_username=$USER -F sign_password=Clave-Segura-1 -F sign_pin=0000"
end

step "updateSignCredentials"
run "curl -s -X POST $BASE/api/v3/updateSignCredentials -H \"Authorization: Bearer \$TOKEN3\" -H 'Content-Type: application/json' -d '{\"sign_username\":\"$USER\",\"sign_password\":\"Clave-Segura-1\"}'"
end

step "signTimeStamp with an openssl query, verified by openssl"
run "openssl ts -query -data $PDF -sha256 -cert -out $WORK/q.tsq && echo query written"
TSR_JSON=$(curl -s -X POST "$BASE/api/v2/signTimeStamp" -H "Authorization: Bearer $TOKEN" -F tsq_file=@"$WORK/q.tsq")
printf '$ curl -s -X POST %s/api/v2/signTimeStamp -H "Authorization: Bearer $TOKEN" -F tsq_file=@q.tsq\n%s\n' "$BASE" "$TSR_JSON" | shorten
node -e 'process.stdout.write(Buffer.from(JSON.parse(process.argv[1]).tsr_file,"base64"))' "$TSR_JSON" > "$WORK/q.tsr"
curl -s "$BASE/api/pki/ca.pem" > "$WORK/ca.pem"
run "openssl ts -reply -in $WORK/q.tsr -text | grep -E 'Status:|Policy OID|Hash Algorithm|Serial number|Time stamp'"
run "openssl ts -verify -data $PDF -in $WORK/q.tsr -CAfile $WORK/ca.pem"
run "curl -s -w ' HTTP %{http_code}' -X POST $BASE/api/v2/signTimeStamp $AUTH -F tsq_file=@$PDF"
end

step "RFC 3161 transport, CA and CRL"
run "curl -s -D - -o $WORK/raw.tsr -X POST $BASE/api/tsa -H 'Content-Type: application/timestamp-query' --data-binary @$WORK/q.tsq | grep -iE '^(HTTP|content-type)'"
run "openssl ts -verify -data $PDF -in $WORK/raw.tsr -CAfile $WORK/ca.pem"
run "openssl x509 -in $WORK/ca.pem -noout -subject"
run "curl -s -o /dev/null -w '%{http_code} %{content_type}' $BASE/api/pki/ca.der"
end

step "Public verification page of a transaction"
run "curl -s $BASE/verify/$TX1 | sed -e 's/<script[^>]*>[^<]*<\\/script>//g' -e 's/<[^>]*>/\\n/g' | grep -v '^\\s*\$' | sed -n '3,20p'"
end
